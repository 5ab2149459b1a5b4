import { Avatar, Box, Card, Container, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { sampleTestimonials } from '../../data/sample';

export function Testimonials() {
  return (
    <Box py={{ base: 48, sm: 72 }} style={{ backgroundColor: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))' }}>
      <Container size="lg">
        <Title order={2} ta="center" mb="xl">
          Loved by developers
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {sampleTestimonials.map((item) => (
            <Card key={item.name} withBorder padding="lg" radius="md" component="figure" m={0}>
              <Text component="blockquote" m={0} size="sm" style={{ fontStyle: 'italic' }}>
                “{item.quote}”
              </Text>
              <Group gap="sm" mt="lg" component="figcaption">
                <Avatar radius="xl" color="indigo">
                  {item.name
                    .split(' ')
                    .map((part) => part[0])
                    .join('')}
                </Avatar>
                <div>
                  <Text fw={600} size="sm">
                    {item.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {item.role}
                  </Text>
                </div>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
