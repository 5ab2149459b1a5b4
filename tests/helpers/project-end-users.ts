import { expect } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from './create-test-app.js';

export interface EndUserTokens {
  access_token: string;
  refresh_token: string;
}

/** A developer's project with an API key, and how to sign its end users up and in through the public API. */
export async function projectWithKey(t: TestApp, tag: string) {
  const developer = await t.signUpAndLogIn(uniqueEmail(tag));
  const project = (await t.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: tag } })).json() as { id: string; project_key: string };
  const { secret: apiKey } = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'backend' } })).json() as { secret: string };
  const headers = { 'x-api-key': apiKey, 'x-end-user-ip': uniqueIp() };
  async function signUp(name: string): Promise<{ email: string; tokens: EndUserTokens }> {
    const email = uniqueEmail(`${tag}-${name}`);
    const signup = await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers });
    expect(signup.statusCode, signup.body).toBe(201);
    return { email, tokens: await logIn(email) };
  }
  async function logIn(email: string, password = STRONG_PASSWORD): Promise<EndUserTokens> {
    const login = await t.call('POST', '/public/api/v1/auth/login', { body: { email, password }, headers });
    expect(login.statusCode, login.body).toBe(200);
    return login.json();
  }
  return { developer, project, apiKey, headers, signUp, logIn };
}

/** The `sid` claim of an access token (the session id the revocation feed names). */
export function sessionIdOf(accessToken: string): string {
  return (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
}
