import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConnectionOf } from '../../server/db/connect.js';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * A refresh token works once. Within REFRESH_REUSE_INTERVAL, the same client presenting the token it
 * just rotated (two tabs, a retried request) gets a working pair; anyone else, or later, is a thief.
 */
const REUSED = 'Refresh token was already used; the session has been revoked. Please sign in again.';
const EXPIRED = 'Your session has expired. Please sign in again.';
const TAB = { 'user-agent': 'Mozilla/5.0 Tab' };

const clock = manualClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

async function session() {
  const ip = uniqueIp();
  const email = uniqueEmail('refresh');
  const tokens = await t.signUpAndLogIn(email, { ip });
  return { ...tokens, ip, email };
}
const refresh = (refresh_token: string, ip: string, headers: Record<string, string> = TAB) =>
  t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token }, ip, headers });

describe('refresh-token reuse', () => {
  it('two tabs refreshing at once both get a working pair and the session stays alive', async () => {
    const s = await session();
    const answers = await Promise.all([refresh(s.refresh_token, s.ip), refresh(s.refresh_token, s.ip)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    for (const answer of answers) {
      const pair = answer.json();
      expect((await t.call('GET', '/api/v1/auth/me', { token: pair.access_token })).statusCode).toBe(200);
      expect((await refresh(pair.refresh_token, s.ip)).statusCode).toBe(200);
    }
  });

  it('a retried request with the just-rotated token from the same client is answered with a working pair', async () => {
    const s = await session();
    const first = await refresh(s.refresh_token, s.ip);
    clock.advance(5);
    const retry = await refresh(s.refresh_token, s.ip);
    expect(retry.statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: retry.json().access_token })).statusCode).toBe(200);
    expect((await refresh(first.json().refresh_token, s.ip)).statusCode).toBe(200);
  });

  it('a replay from another address revokes the whole family and is recorded as token_reuse', async () => {
    const s = await session();
    const next = (await refresh(s.refresh_token, s.ip)).json();
    const stolen = await refresh(s.refresh_token, uniqueIp());
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json()).toEqual({ detail: REUSED });
    expect((await refresh(next.refresh_token, s.ip)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: next.access_token })).statusCode).toBe(401);
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', s.email).where('failure_reason', '=', 'token_reuse').executeTakeFirst();
    expect(attempt).toMatchObject({ success: 0, user_id: s.user.id });
  });

  it('a replay from the same address with another browser revokes the family', async () => {
    const s = await session();
    await refresh(s.refresh_token, s.ip);
    expect((await refresh(s.refresh_token, s.ip, { 'user-agent': 'curl/8.0' })).statusCode).toBe(401);
  });

  it('a replay after the interval revokes the family', async () => {
    const s = await session();
    const next = (await refresh(s.refresh_token, s.ip)).json();
    clock.advance(11);
    expect((await refresh(s.refresh_token, s.ip)).json()).toEqual({ detail: REUSED });
    expect((await refresh(next.refresh_token, s.ip)).statusCode).toBe(401);
  });
});

/** Runs `run` and answers how many commits SQLite's writer made meanwhile (null on PostgreSQL). */
async function commitsDuring<T>(run: () => Promise<T>): Promise<{ result: T; commits: number | null }> {
  const writer = writeConnectionOf(t.db);
  if (!writer) return { result: await run(), commits: null };
  const prepare = writer.prepare;
  let commits = 0;
  writer.prepare = (text) => {
    if (text === 'commit') commits += 1;
    return prepare(text);
  };
  try {
    return { result: await run(), commits };
  } finally {
    writer.prepare = prepare;
  }
}

const sessionRevokedFor = async (accessToken: string) =>
  (await t.db.selectFrom('sessions').select('revoked_reason').where('id', '=', JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid).executeTakeFirstOrThrow())
    .revoked_reason;

describe('refreshes arriving together (committed as one group on SQLite)', () => {
  it('a replay among fresh refreshes revokes its own session only, and each fresh one gets a working pair', async () => {
    const [replayed, b, c] = await Promise.all([session(), session(), session()]);
    const rotated = (await refresh(replayed.refresh_token, replayed.ip)).json();
    const { result: answers, commits } = await commitsDuring(() =>
      Promise.all([refresh(b.refresh_token, b.ip), refresh(replayed.refresh_token, uniqueIp()), refresh(c.refresh_token, c.ip)]),
    );
    if (commits !== null) expect(commits).toBe(1);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 200]);
    expect(answers[1]!.json()).toEqual({ detail: REUSED });
    expect((await refresh(rotated.refresh_token, replayed.ip)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: rotated.access_token })).statusCode).toBe(401);
    expect(await sessionRevokedFor(rotated.access_token)).toBe('refresh_token_reuse');
    for (const [answer, owner] of [[answers[0]!, b], [answers[2]!, c]] as const) {
      const pair = answer.json();
      expect((await t.call('GET', '/api/v1/auth/me', { token: pair.access_token })).statusCode).toBe(200);
      expect((await refresh(pair.refresh_token, owner.ip)).statusCode).toBe(200);
      expect(await sessionRevokedFor(pair.access_token)).toBeNull();
    }
  });

  it('one token presented by several clients at once: exactly one wins, and the session is revoked with its pair', async () => {
    const s = await session();
    const { result: answers, commits } = await commitsDuring(() => Promise.all([s.ip, uniqueIp(), uniqueIp(), uniqueIp()].map((ip) => refresh(s.refresh_token, ip))));
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode === 401).map((answer) => answer.json().detail);
    if (commits !== null) {
      // One after the other, as lone transactions would run: the first wins, the second revokes, the rest find it revoked.
      expect(commits).toBe(1);
      expect(answers[0]!.statusCode).toBe(200);
      expect(refused).toEqual([REUSED, EXPIRED, EXPIRED]);
    } else {
      // PostgreSQL's transactions overlap: each loser may still have read the session live.
      expect(refused).toContain(REUSED);
      expect(refused.every((detail) => detail === REUSED || detail === EXPIRED)).toBe(true);
    }
    const pair = won[0]!.json();
    expect((await refresh(pair.refresh_token, s.ip)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: pair.access_token })).statusCode).toBe(401);
    expect(await sessionRevokedFor(pair.access_token)).toBe('refresh_token_reuse');
  });
});

describe('REFRESH_REUSE_INTERVAL=0', () => {
  it('is strict: any second use revokes, even from the same client at once', async () => {
    const strict = await createTestApp({ env: { REFRESH_REUSE_INTERVAL: '0' } });
    try {
      const ip = uniqueIp();
      const { refresh_token } = await strict.signUpAndLogIn(uniqueEmail('strict'), { ip });
      const call = () => strict.call('POST', '/api/v1/auth/refresh', { body: { refresh_token }, ip, headers: TAB });
      const next = (await call()).json();
      expect((await call()).statusCode).toBe(401);
      expect((await strict.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: next.refresh_token }, ip, headers: TAB })).statusCode).toBe(401);
    } finally {
      await strict.close();
    }
  });
});

describe("an end user's refresh", () => {
  it("is counted in the project's daily refreshes with the rotation, and a refused one is not", async () => {
    const owner = await t.signUpAndLogIn(uniqueEmail('counted-owner'));
    const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Counted refreshes' } })).json();
    const headers = { ...TAB, 'x-api-key': (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json().secret };
    const email = uniqueEmail('counted-end-user');
    const ip = uniqueIp();
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD }, ip })).statusCode).toBe(201);
    const login = (await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD }, ip })).json();
    const refreshEndUser = (refresh_token: string, from = ip) => t.call('POST', '/public/api/v1/auth/refresh', { headers, body: { refresh_token }, ip: from });
    const counted = async () =>
      (await t.db.selectFrom('project_daily_stats').select('refreshes').where('project_id', '=', project.id).executeTakeFirst())?.refreshes ?? 0;

    const next = await refreshEndUser(login.refresh_token);
    expect(next.statusCode).toBe(200);
    expect((await refreshEndUser(next.json().refresh_token)).statusCode).toBe(200);
    expect(await counted()).toBe(2);
    expect((await refreshEndUser(login.refresh_token, uniqueIp())).json()).toEqual({ detail: REUSED });
    // A platform token is unknown in the project's realm.
    expect((await refreshEndUser(owner.refresh_token)).statusCode).toBe(401);
    expect(await counted()).toBe(2);
  });
});
