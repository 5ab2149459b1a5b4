import { Anchor, Code, Container, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';

/** Debug page: shows the token from the query string and the verification URL built from it. */
export function TestVerifyPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const verifyPath = token ? `/verify-email?token=${encodeURIComponent(token)}` : '/verify-email';
  const verifyUrl = `${window.location.origin}${verifyPath}`;

  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1} fz={28}>
          Verification debug
        </Title>
        <Text c="dimmed" size="sm">
          A developer aid: what the verification link carries and where it leads.
        </Text>
        <Table withTableBorder withColumnBorders layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={140}>Token</Table.Th>
              <Table.Td>
                <Code style={{ wordBreak: 'break-all' }}>{token ?? '(none)'}</Code>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Verification URL</Table.Th>
              <Table.Td>
                <Anchor component={Link} to={verifyPath} style={{ wordBreak: 'break-all' }}>
                  {verifyUrl}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
    </Container>
  );
}
