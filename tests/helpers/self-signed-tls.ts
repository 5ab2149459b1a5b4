/**
 * A self-signed certificate for localhost and 127.0.0.1 (EC P-256, valid until 2126), for tests that need
 * an https server a client must refuse. Test-only: the key is public, nothing trusts it.
 * Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 *   -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1
 */
export const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgJSJKwQe+A9LRvYHh
GmN/kts4JgRt1hMKtSxAUXswQiehRANCAARvKXB4pfacbvbkpJKcy68B4UwBp39N
V4guZO84Hx1Ji3g+z3na0l+FmSw7i+91SeWg3lYWKhPIO8bJASPpsIwy
-----END PRIVATE KEY-----
`;

export const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUS6TWsWQ9ODx6Ne9tqUAPZuPyGMAwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNTE3MjI1M1oYDzIxMjYxMTAx
MTcyMjUzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARvKXB4pfacbvbkpJKcy68B4UwBp39NV4guZO84Hx1Ji3g+z3na0l+F
mSw7i+91SeWg3lYWKhPIO8bJASPpsIwyo28wbTAdBgNVHQ4EFgQUmQKVIVoGXshi
LjhBcWo3yd7RWeswHwYDVR0jBBgwFoAUmQKVIVoGXshiLjhBcWo3yd7RWeswDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDRwAwRAIgUIiGIoLSKN5b7AwVAd1ZdJjYt3exfVkVNMuMpuxFf6ECIDNC
Mst91JyE9wpmpNjCWa0NxvDN1+KcFr3aTjldK8WK
-----END CERTIFICATE-----
`;
