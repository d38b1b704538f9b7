import { describe, expect, it } from 'vitest';
import { isPlaceholderValue, isSecretValue, isTokenLike } from '../../../src/core/labels/secret-value.js';

describe('isPlaceholderValue', () => {
  it.each(['', '${TOKEN}', '$API_KEY', '<your key>', '{{ secret }}', '********', 'xxxxxxxx', 'null', 'undefined', 'string', 'your-api-key', 'CHANGEME', '%s'])(
    'should call %j a placeholder',
    (value) => {
      expect(isPlaceholderValue(value)).toBe(true);
    },
  );

  it.each(['hunter22', 'sk-live-1234', 'Zm9vOmJhcg=='])('should not call %j a placeholder', (value) => {
    expect(isPlaceholderValue(value)).toBe(false);
  });
});

describe('isSecretValue', () => {
  it.each([
    ['a quoted literal', 'honoishot', true, true],
    ['a quoted literal with digits', 'password123', true, true],
    ['a quoted key', 'sk-ant-test-000', true, true],
    ['an unquoted hex token', 'a8f5f167f44f4964', false, true],
    ['a short quoted literal', 'abc', true, false],
    ['quoted prose', 'Enter your password', true, false],
    ['a quoted value that names itself', 'ietf-token', true, false],
    ['a quoted self-naming value with digits', 'prod-token-2024', true, true],
  ])('should judge %s (%j, quoted: %s)', (_case, value, quoted, expected) => {
    // Arrange: the table.

    // Act
    const secret = isSecretValue(value, quoted);

    // Assert
    expect(secret).toBe(expected);
  });

  it.each([
    ['a variable', 'authToken'],
    ['a property path', 'options.apiKey'],
    ['a type with a digit', 'Uint8Array'],
    ['a number', '4096'],
    ['a date', '2026-09-19'],
    ['a path', '/run/secrets/db'],
    ['a URL without credentials', 'https://auth.example.com/callback'],
    ['a short word', 'await'],
  ])('should not take %s (%j) unquoted for a secret', (_case, value) => {
    expect(isSecretValue(value, false)).toBe(false);
  });

  it('should take an unquoted generated value for a secret', () => {
    expect(isSecretValue('hunter2-hunter2', false)).toBe(true);
    expect(isSecretValue('abc123def456ghi', false)).toBe(true);
  });
});

describe('isTokenLike', () => {
  it.each([
    ['letters and digits', 'tok_9f2a7c31d4', true],
    ['long mixed case', 'AbCdEfGhIjKlMnOpQr', true],
    ['a word', 'something', false],
    ['a capitalised word', 'JavaScript', false],
    ['digits only', '1234567890', false],
    ['short', 'a1b2', false],
  ])('should judge %s', (_case, value, expected) => {
    expect(isTokenLike(value)).toBe(expected);
  });
});
