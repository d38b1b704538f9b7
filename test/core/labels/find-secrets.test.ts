import { describe, expect, it } from 'vitest';
import { findSecrets, structureOf, type SecretKind } from '../../../src/core/labels/find-secrets.js';

/** The kinds found and the text each finding covers. */
function found(text: string): Array<[SecretKind, string, boolean]> {
  return findSecrets(text).map((f) => [f.kind, text.slice(f.start, f.end), f.certain]);
}

const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj';

describe('findSecrets', () => {
  describe('certain secrets', () => {
    it.each([
      ["a bearer header (the seed's example)", "curl -H 'authorization: Bearer tok_9f2a7c31d4' https://api.example.com/charges", 'tok_9f2a7c31d4'],
      ['a basic credential', 'Authorization: Basic Zm9vOmJhcg==', 'Zm9vOmJhcg=='],
      ['a GitHub-style token header', 'Authorization: token ghx1234567890abcdef', 'ghx1234567890abcdef'],
      ['a JSON key field', '{"api_key": "k3y-v4lue-here"}', 'k3y-v4lue-here'],
      ['a header-style key field', 'x-api-key: sk-ant-test-000', 'sk-ant-test-000'],
      ['a YAML password', 'db:\n  password: hunter2-hunter2\n', 'hunter2-hunter2'],
      ['a CLI flag', 'mysql --password=s3cr3tPass0rd -u root', 's3cr3tPass0rd'],
      ['a quoted secret in code', "const clientSecret = 'f00dBABEcafe';", 'f00dBABEcafe'],
      ['a secret-named env line', 'PATH=/usr/bin\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCY\nHOME=/root', 'wJalrXUtnFEMIK7MDENGbPxRfiCY'],
      ['an exported env line', 'export GITHUB_TOKEN="abc123"', 'abc123'],
      ['an Anthropic key', 'the key is sk-ant-api03-AbC123dEf456GhI789jKl', 'sk-ant-api03-AbC123dEf456GhI789jKl'],
      ['an AWS access key id', 'id AKIAIOSFODNN7EXAMPLE here', 'AKIAIOSFODNN7EXAMPLE'],
      ['a GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
      ['a Stripe key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
      [
        'a JWT',
        'cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U;',
        'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      ],
      ['a URL password', 'DATABASE_URL=postgres://app:Tr0ub4dor@db:5432/app', 'Tr0ub4dor'],
      ['a URL password glued to a word', 'xxxxpostgres://app:QAAAAAAAAAAA7@db/app', 'QAAAAAAAAAAA7'],
    ])('should find %s', (_case, text, secret) => {
      // Arrange: the table.

      // Act
      const findings = found(text);

      // Assert
      expect(findings.some(([, value, certain]) => certain && value.includes(secret))).toBe(true);
    });

    it('should find a private key block, all of it, also inside a JSON file', () => {
      // Arrange
      const pem = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;
      const json = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY}\\n-----END PRIVATE KEY-----\\n"}`;

      // Act
      const inText = found(`key:\n${pem}\ndone`);
      const inJson = found(json);

      // Assert
      expect(inText).toContainEqual(['private-key', pem, true]);
      expect(inJson.map(([kind]) => kind)).toContain('private-key');
    });
  });

  describe("what is not a secret (the seed's patterns took these)", () => {
    it.each([
      ['code that names a token', 'const token = await getToken();\nthis.token = token;\nreturn { token };'],
      ['a typed field', 'readonly token: Uint8Array;\npassword?: string;'],
      ['a key read from the environment', 'api_key = os.environ["OPENAI_API_KEY"]\nsecret: process.env.SECRET'],
      ['counts of tokens', '"input_tokens": 1234, "max_tokens": 4096, "cache_read_input_tokens": 0'],
      ['prose about auth', 'Use basic authentication, or a bearer token. The basic JavaScript types. Password: see the vault.'],
      ['an enum naming a token', 'IETFToken = "ietf-token",\nXToken = "x-token"'],
      ['env lines without a secret name', 'PATH=/usr/local/bin:/usr/bin\nNODE_ENV=production\nHOME=/root\nTOKENIZERS_PARALLELISM=false\nGIT_AUTHOR_NAME=Jane'],
      ['a secret-named env line holding a path or a switch', 'SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.42\nSESSION_TIMEOUT=3600\nDISABLE_AUTH=true'],
      ['code that checks for a PEM header', 'if (pem.indexOf("-----BEGIN PRIVATE KEY-----") !== 0) throw new TypeError("PKCS#8");'],
      ['a certificate', `-----BEGIN CERTIFICATE-----\n${PEM_BODY}\n-----END CERTIFICATE-----`],
      ['a placeholder header', 'Authorization: Bearer ${TOKEN}\nAuthorization: Bearer <token>'],
      ['a URL without a password', 'https://user@github.com/org/repo.git and git@github.com:org/repo.git'],
    ])('should find nothing certain in %s', (_case, text) => {
      // Arrange: the table.

      // Act
      const findings = found(text);

      // Assert
      expect(findings.filter(([, , certain]) => certain)).toEqual([]);
    });

    it.each([
      [
        'a ctxshed stub (a sha256 in hex)',
        `[ctxshed: tool result moved out of the context to save space; 4821 bytes, sha256 ${'8370b47dccff78983af2d4aa820dcb0de62f3507fe1f7782de755774588d98a9'}; the full text is in /home/dev/.local/state/ctxshed/elided/8370b47dccff78983af2d4aa820dcb0de62f3507fe1f7782de755774588d98a9.txt, read that file to see it]`,
      ],
      [
        'git log output',
        'commit 33934de09af6a6627eb44e310a8079df009abdbb\nMerge: 1ac548e 07f868c\nAuthor: Claude <noreply@anthropic.com>\n\n    Co-Authored-By: Claude <noreply@anthropic.com>',
      ],
      ['a commit URL', 'see https://github.com/es-shims/dunder-proto/commit/e3c5c3bd81cf8cef7dff2eca19e558f0e307f666 for it'],
      ['a long path', '/home/USER/projects/spotter-worktrees/spotter-gqc/priv/repo/migrations/20260211104759_replace_pane_id_with_session_id.exs'],
      [
        'long identifiers',
        'replacePaneIdWithSessionIdAndSomethingElseToo HTTP2_HEADER_ACCESS_CONTROL_ALLOW_CREDENTIALS test_case_number_1_should_do_something_long_enough',
      ],
      ['a lockfile integrity hash', '"integrity": "sha512-RgKbgaYTJnqYz1q4lNVDJT+ijQ4jj4eGs8qO9dW3S3LmjOd2O4KUuOvpFf8zGEe5XIM52sI7skPsoF5JZNqXQ=="'],
      ['example addresses', 'mail user@example.com or ops@corp.test, or git@github.com:org/repo'],
      ['a package version', 'installed node@20.11.5 and @types/node@20.19.43'],
    ])('should find nothing at all in %s', (_case, text) => {
      // Arrange: the table.

      // Act
      const findings = found(text);

      // Assert
      expect(findings).toEqual([]);
    });
  });

  describe('uncertain findings (redacted, counted)', () => {
    it('should find a random 40+ character run and a personal address, not certain', () => {
      // Arrange
      const text = 'csrf T1t_QhofQ146FB88XDZKACBpPRErcn10-0R8QmwkblZS5dyOD6hCECNC owner: marco.rotili@handgemacht.ai';

      // Act
      const findings = found(text);

      // Assert
      expect(findings).toEqual([
        ['key-run', 'T1t_QhofQ146FB88XDZKACBpPRErcn10-0R8QmwkblZS5dyOD6hCECNC', false],
        ['email', 'marco.rotili@handgemacht.ai', false],
      ]);
    });

    it('should not take a run shorter than 40 characters', () => {
      expect(found('T1t_QhofQ146FB88XDZKACBpPRErcn10-0R8Qmw')).toEqual([]);
    });
  });

  it('should give the findings in order of where they start', () => {
    // Arrange
    const text = 'a@personal.io then password="p4ssw0rd!" then Bearer abcdef123456';

    // Act
    const starts = findSecrets(text).map((f) => f.start);

    // Assert
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts).toHaveLength(3);
  });

  it('should scan a long run of key characters in linear time (no backtracking blow-up)', () => {
    // Arrange: 2 MB of one word-character run and 2 MB of "a@" pairs, which a careless pattern
    // would retry from every position.
    const run = 'a'.repeat(2_000_000);
    const ats = 'a@'.repeat(1_000_000);

    // Act
    const findings = [...findSecrets(run), ...findSecrets(ats)];

    // Assert: it returned (a quadratic scan would not, within the test timeout).
    expect(findings).toEqual([]);
  });
});

describe('structureOf', () => {
  it('should score paths and identifiers high, random base64 low', () => {
    expect(structureOf('src/core/labels/find-secrets-in-tool-results-and-more')).toBeGreaterThan(0.9);
    expect(structureOf('HTTP2_HEADER_ACCESS_CONTROL_ALLOW_CREDENTIALS')).toBe(1);
    expect(structureOf('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj')).toBeLessThan(0.3);
    expect(structureOf('')).toBe(0);
  });
});
