import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UserTransferLineSchema } from '../../shared/schemas/user-transfer.js';
import { PROVIDER_FORMATS, PROVIDER_READERS, type ProviderReaderOptions, type ProviderRecord } from '../../server/modules/user-transfer/readers/providers.js';

/**
 * Each provider's export file, shaped as the provider documents it (tests/fixtures/user-transfer/),
 * read into UserTransferLine-shaped records the import validates: the exact lines, each one parsing
 * with UserTransferLineSchema.
 */
const FIXTURES = path.join(import.meta.dirname, '../fixtures/user-transfer');
const fixture = (name: string) => fs.createReadStream(path.join(FIXTURES, name));
const BCRYPT = '$2b$04$J.IVZGBAAs0SxuKbjvishuAhVKlTzoPCursGXoq8IMF4Mkjoax8k.';

async function read(format: (typeof PROVIDER_FORMATS)[number], input: Readable, options?: ProviderReaderOptions): Promise<ProviderRecord[]> {
  const records: ProviderRecord[] = [];
  for await (const record of PROVIDER_READERS[format](input, options)) records.push(record);
  for (const record of records) if (record.value !== undefined) UserTransferLineSchema.parse(record.value);
  return records;
}

describe('Auth0', () => {
  it('reads the user export (NDJSON): ids, names, times and metadata, and reports a line that is not JSON by number', async () => {
    expect(await read('auth0', fixture('auth0-users.ndjson'))).toEqual([
      {
        line: 1,
        value: {
          email: 'ada@example.com',
          email_verified: true,
          first_name: 'Ada',
          last_name: 'Lovelace',
          external_id: 'auth0|60425da93519d90068f82966',
          created_at: '2021-03-05T16:35:21.881Z',
          private_metadata: { auth0: { user_metadata: { theme: 'dark' }, app_metadata: { plan: 'pro' } } },
        },
      },
      {
        line: 2,
        value: { email: 'grace@example.com', email_verified: true, first_name: 'Grace', last_name: 'Brewster Hopper', external_id: 'google-oauth2|104987362541092548213', created_at: '2022-07-14T08:00:00.000Z' },
      },
      { line: 4, value: undefined, error: 'Not valid JSON' },
    ]);
  });

  it('reads the password-hash export alone: e-mail, verification, the bcrypt hash and the user id from _id.$oid', async () => {
    expect(await read('auth0', fixture('auth0-password-hashes.ndjson'))).toEqual([
      { line: 1, value: { email: 'ada@example.com', email_verified: true, external_id: 'auth0|60425da93519d90068f82966', password: BCRYPT } },
      { line: 2, value: { email: 'alan@example.com', email_verified: false, external_id: 'auth0|60425dc43519d90068f82973', password: BCRYPT } },
    ]);
  });

  it('joins the hash export to the user export (a JSON array here) by user id', async () => {
    const records = await read('auth0', fixture('auth0-users.json'), { passwordHashes: fixture('auth0-password-hashes.ndjson') });
    expect(records.map((record) => record.value)).toEqual([
      { email: 'ada@example.com', email_verified: true, first_name: 'Ada', last_name: 'Lovelace', external_id: 'auth0|60425da93519d90068f82966', created_at: '2021-03-05T16:35:21.881Z', password: BCRYPT },
      { email: 'alan@example.com', email_verified: false, external_id: 'auth0|60425dc43519d90068f82973', created_at: '2021-03-05T16:36:04.102Z', password: BCRYPT },
    ]);
    expect(records.map((record) => record.line)).toEqual([1, 2]);
  });
});

describe('Firebase', () => {
  it("reads auth:export's JSON: the modified-scrypt hash and salt, names, custom claims, second factors, a user without a password", async () => {
    expect(await read('firebase', fixture('firebase-users.json'))).toEqual([
      {
        line: 1,
        value: {
          email: 'user1@example.com',
          email_verified: true,
          first_name: 'Ada',
          last_name: 'Lovelace',
          external_id: 'Ky8EhIR6QHd0hkZ1KTHVXb1NbQt2',
          created_at: '2020-11-05T18:03:31.000Z',
          public_metadata: { admin: true, tier: 'gold' },
          private_metadata: { firebase: { mfa: [{ id: 'b7d91a0e-2c6c-4c3e-9b2b-0a1f7f0d1a11', display_name: 'Work phone', phone: '+15555550100', enrolled_at: '2021-01-10T09:00:00Z' }] } },
          // Firebase's published sample: the password is user1password.
          password: { algorithm: 'firebase_scrypt', hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==', salt: '42xEC+ixf3L2lw==' },
        },
      },
      {
        line: 2,
        value: { email: 'social@example.com', email_verified: true, external_id: '9rtp3mRLyTYUNZ0ZZ2cvxqw6KZJ3', created_at: '2020-11-05T18:13:20.000Z', private_metadata: { firebase: { providers: ['google.com'] } }, password: null },
      },
      { line: 3, value: undefined, error: 'Not a JSON object' },
    ]);
  });

  it('streams a large file: the first user comes out before the file has been read to its end', async () => {
    const USERS = 50_000;
    let produced = 0;
    const source = Readable.from(
      (function* () {
        yield '{"kind":"identitytoolkit#DownloadAccountResponse","users":[';
        for (let i = 0; i < USERS; i++) {
          produced = i + 1;
          yield `${i ? ',' : ''}{"localId":"u${i}","email":"u${i}@example.com","emailVerified":false,"passwordHash":"aGFzaA==","salt":"c2FsdA==","createdAt":"1604599411000"}`;
        }
        yield ']}';
      })(),
    );
    let count = 0;
    let producedAtFirst = 0;
    for await (const record of PROVIDER_READERS.firebase(source)) {
      if (count === 0) producedAtFirst = produced;
      count += 1;
      expect(record.line).toBe(count);
    }
    expect(count).toBe(USERS);
    expect(producedAtFirst).toBeLessThan(USERS / 10);
  });
});

describe('Supabase', () => {
  it("reads auth.users as CSV: the bcrypt encrypted_password, confirmation, PostgreSQL's times and the metadata", async () => {
    expect(await read('supabase', fixture('supabase-users.csv'))).toEqual([
      {
        line: 2,
        value: {
          email: 'ada@example.com',
          email_verified: true,
          first_name: 'Ada',
          last_name: 'Lovelace',
          external_id: '3f1c2a6e-8b9d-4e2f-a1b0-5c6d7e8f9a0b',
          created_at: '2024-01-15T10:20:01.654Z',
          private_metadata: { supabase: { user_metadata: { first_name: 'Ada', last_name: 'Lovelace', email_verified: true }, app_metadata: { provider: 'email', providers: ['email'] } } },
          password: '$2a$04$koAp73r4qVRJqMzL9FnB..BUgLOqvbCbh2vVP6pQ/HGznj12vuppe',
        },
      },
      {
        line: 3,
        value: {
          email: 'grace@example.com',
          email_verified: false,
          first_name: 'Grace',
          last_name: 'Hopper',
          external_id: '9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d',
          created_at: '2024-02-02T12:00:00.000Z',
          private_metadata: { supabase: { user_metadata: { full_name: 'Grace Hopper', avatar_url: 'https://avatars.example/grace' }, app_metadata: { provider: 'github', providers: ['github'] } } },
          password: null,
        },
      },
    ]);
  });
});

describe('Clerk', () => {
  it("reads the Dashboard's CSV: digests by hasher, TOTP secrets, verification from the verified addresses", async () => {
    expect(await read('clerk', fixture('clerk-users.csv'))).toEqual([
      {
        line: 2,
        value: {
          email: 'ada@example.com',
          email_verified: true,
          first_name: 'Ada',
          last_name: 'Lovelace',
          external_id: 'user_2gRua7G8WRYBglzXE5sxRbIRkfJ',
          private_metadata: { clerk: { username: 'ada', phone_number: '+15555550100' } },
          password: BCRYPT,
          totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        },
      },
      {
        line: 3,
        value: {
          email: 'grace@example.com',
          email_verified: false,
          first_name: 'Grace',
          last_name: 'Hopper',
          external_id: 'user_2gRub1X9kQJpVnW3sZyT8uLmN4o',
          password: '$argon2id$v=19$m=19456,t=2,p=1$8AExekdwZCTmjBgfuoCLaw$K2c7o8IsXU+V9YEpm9biSQTTZfcKZWSqLa2MQh34PjI',
        },
      },
      { line: 4, value: { email: 'alan@example.com', email_verified: true, external_id: 'user_2gRuc3Z7mPqRsTuVwXyZaBcDeFg', private_metadata: { clerk: { username: 'alan' } }, password: null } },
    ]);
  });
});

describe('Cognito', () => {
  it('reads the user pool CSV without hashes: sub, verification, names and custom attributes', async () => {
    expect(await read('cognito', fixture('cognito-users.csv'))).toEqual([
      {
        line: 2,
        value: {
          email: 'ada@example.com',
          email_verified: true,
          first_name: 'Ada',
          last_name: 'Lovelace',
          external_id: '6a2f1b1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
          private_metadata: { cognito: { username: 'ada', custom: { tenant: 'acme' } } },
          password: null,
        },
      },
      {
        line: 3,
        value: { email: 'grace@example.com', email_verified: false, first_name: 'Grace', last_name: 'Hopper', external_id: '7b3c2d2f-4d5e-4f6a-9bac-1d2e3f4a5b6c', private_metadata: { cognito: { username: 'grace' } }, password: null },
      },
    ]);
  });
});

it('has a reader for every format', () => {
  expect(Object.keys(PROVIDER_READERS).sort()).toEqual([...PROVIDER_FORMATS].sort());
});
