import type { ProviderReader } from './provider-reader.js';
import { compact, isoTime, isObject, jsonElements, jsonObject, splitName, text, truthy } from './sources.js';

/**
 * Firebase Authentication's `firebase auth:export users.json --format=json`
 * (https://firebase.google.com/docs/cli/auth): `{"users": [{localId, email, emailVerified, passwordHash,
 * salt, displayName, createdAt, customAttributes, mfaInfo, providerUserInfo, …}]}`, streamed element by
 * element (one user in memory, whatever the file's size).
 *
 * localId → external_id; displayName split into first and last name; createdAt (epoch ms) →
 * created_at; passwordHash and salt (base64) → `{algorithm: 'firebase_scrypt', hash, salt}`, which the
 * import verifies with the project's hash parameters (signer key, salt separator, rounds, memory cost)
 * given once per import; customAttributes (the custom claims, JSON) → public_metadata, as they were
 * in the user's ID tokens. mfaInfo (SMS second factors: no secret to carry) and the linked providers
 * are kept in private_metadata.firebase for the app to ask those users to enrol again.
 */
export const readFirebase: ProviderReader = async function* (input) {
  for await (const { line, record, error } of jsonElements(input, '$.users.*')) {
    if (!record) {
      yield { line, value: undefined, error };
      continue;
    }
    const hash = text(record.passwordHash);
    const salt = text(record.salt);
    const mfa = Array.isArray(record.mfaInfo) ? record.mfaInfo.filter(isObject).map((factor) => compact({ id: text(factor.mfaEnrollmentId), display_name: text(factor.displayName), phone: text(factor.phoneInfo), enrolled_at: text(factor.enrolledAt) })) : [];
    const providers = Array.isArray(record.providerUserInfo) ? record.providerUserInfo.filter(isObject).map((info) => text(info.providerId)).filter((id): id is string => id !== undefined && id !== 'password') : [];
    const firebase = compact({ mfa: mfa.length ? mfa : undefined, providers: providers.length ? providers : undefined });
    yield {
      line,
      value: compact({
        email: text(record.email),
        email_verified: truthy(record.emailVerified),
        ...splitName(record.displayName),
        external_id: text(record.localId),
        created_at: isoTime(record.createdAt),
        public_metadata: jsonObject(record.customAttributes),
        private_metadata: Object.keys(firebase).length ? { firebase } : undefined,
        password: hash && salt ? { algorithm: 'firebase_scrypt', hash, salt } : null,
      }),
    };
  }
};
