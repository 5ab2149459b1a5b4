import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { EXPORT_PASSPHRASE_MIN, type ExportSecret } from '../../../shared/schemas/user-export';
import { ApiError, apiErrorMessage, errorOf } from '../../lib/api-client';
import { StepUpCancelled } from '../../lib/step-up';
import { useStepUp } from '../account/StepUp';

const FAILED = 'The export could not be made. Try again.';

/** The encrypted export: a POST (the passphrase stays out of the URL), downloaded as a file once the server has answered. */
async function downloadEncrypted(projectId: string, include: ExportSecret[], passphrase: string): Promise<void> {
  const response = await fetch(`/api/v1/projects/${encodeURIComponent(projectId)}/users/export`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/octet-stream, application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ include, passphrase }),
  });
  if (!response.ok) throw await errorOf(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'users.ndjson.age';
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * Monitoring → Users → Export users: every end user as NDJSON the import reads (another project, another
 * install). Plain, it is a link to the GET; with a passphrase it is an age file, and only then may the
 * owner add password hashes and TOTP secrets (the server asks for a step-up first, which the dialog of
 * PlatformStepUp answers, and refuses anyone else with 403).
 */
export function ExportUsersModal({ projectId, opened, onClose }: { projectId: string; opened: boolean; onClose: () => void }) {
  const stepUp = useStepUp();
  const [include, setInclude] = useState<ExportSecret[]>([]);
  const [encrypt, setEncrypt] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [repeated, setRepeated] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const encrypted = encrypt || include.length > 0;
  const passphraseProblem =
    passphrase.length < EXPORT_PASSPHRASE_MIN ? `At least ${EXPORT_PASSPHRASE_MIN} characters` : passphrase !== repeated ? 'The two passphrases differ' : null;

  const close = () => {
    setInclude([]);
    setEncrypt(false);
    setPassphrase('');
    setRepeated('');
    setError(null);
    onClose();
  };
  const toggle = (secret: ExportSecret, on: boolean) => setInclude((current) => (on ? [...current, secret] : current.filter((s) => s !== secret)));

  const download = async () => {
    setPending(true);
    setError(null);
    try {
      await stepUp.guard(() => downloadEncrypted(projectId, include, passphrase));
      close();
    } catch (caught) {
      if (!(caught instanceof StepUpCancelled)) setError(caught instanceof ApiError ? apiErrorMessage(caught, FAILED) : FAILED);
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Export users" centered>
      <Stack gap="md">
        <Text size="sm">
          Every end user of this project as NDJSON, the format the import reads: addresses, names, metadata, organizations and passkeys. Import the file into another project or another install to move them.
        </Text>
        <Checkbox label="Encrypt the file with a passphrase (age)" checked={encrypted} disabled={include.length > 0} onChange={(event) => setEncrypt(event.currentTarget.checked)} />
        <Checkbox label="Include password hashes (project owner)" checked={include.includes('password_hashes')} onChange={(event) => toggle('password_hashes', event.currentTarget.checked)} />
        <Checkbox label="Include authenticator (TOTP) secrets (project owner)" checked={include.includes('totp_secrets')} onChange={(event) => toggle('totp_secrets', event.currentTarget.checked)} />
        {encrypted && (
          <>
            <Text size="xs" c="dimmed">
              Open it with <code>age -d</code> and this passphrase; it is not kept anywhere, so it cannot be recovered. With secrets in it, anyone holding the file and the passphrase can sign in as your users: keep both apart.
            </Text>
            <PasswordInput label="Passphrase" value={passphrase} onChange={(event) => setPassphrase(event.currentTarget.value)} autoComplete="new-password" />
            <PasswordInput
              label="Repeat the passphrase"
              value={repeated}
              onChange={(event) => setRepeated(event.currentTarget.value)}
              autoComplete="new-password"
              error={passphrase && repeated && passphraseProblem ? passphraseProblem : undefined}
            />
          </>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          {encrypted ? (
            <Button onClick={() => void download()} loading={pending} disabled={passphraseProblem !== null}>
              Download encrypted file
            </Button>
          ) : (
            <Button component="a" href={`/api/v1/projects/${encodeURIComponent(projectId)}/users/export`} download onClick={close}>
              Download NDJSON
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
