import { describe, expect, it } from 'vitest';
import { holdsSecret, MAX_PLACEHOLDERS, REDACTION_PLACEHOLDER, redactText } from '../../../src/core/labels/redact-text.js';

describe('redactText', () => {
  it("should redact the seed's example the way the seed shows it", () => {
    // Arrange
    const text = "curl -H 'authorization: Bearer tok_9f2a7c31d4' https://api.example.com/charges";

    // Act
    const redacted = redactText(text);

    // Assert
    expect(redacted).toEqual({
      text: "curl -H 'authorization: Bearer [redacted]' https://api.example.com/charges",
      placeholders: 1,
      holdsSecret: true,
    });
  });

  it('should leave a text without secrets as it is', () => {
    // Arrange
    const text = 'npm test\n  12 passed\ncommit 33934de09af6a6627eb44e310a8079df009abdbb';

    // Act, Assert
    expect(redactText(text)).toEqual({ text, placeholders: 0, holdsSecret: false });
  });

  it('should hide the value and keep the name', () => {
    // Arrange
    const text = 'password="p4ssw0rd!" and GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789';

    // Act
    const { text: out } = redactText(text);

    // Assert
    expect(out).toBe(`password="${REDACTION_PLACEHOLDER}" and GITHUB_TOKEN=${REDACTION_PLACEHOLDER}`);
  });

  it('should count one placeholder for findings that overlap', () => {
    // Arrange: an Anthropic key is a known token, a key field's value and a 40+ run at once.
    const text = 'x-api-key: sk-ant-api03-AbC123dEf456GhI789jKlMnO012pQr345';

    // Act
    const redacted = redactText(text);

    // Assert
    expect(redacted.text).toBe(`x-api-key: ${REDACTION_PLACEHOLDER}`);
    expect(redacted.placeholders).toBe(1);
  });

  it(`should call a text with up to ${MAX_PLACEHOLDERS} uncertain findings clean, and one with more a secret`, () => {
    // Arrange
    const two = 'owner: ana@personal.io, reviewer: bo@personal.io';
    const three = `${two}, cc: cy@personal.io`;

    // Act
    const fromTwo = redactText(two);
    const fromThree = redactText(three);

    // Assert
    expect(fromTwo).toEqual({ text: 'owner: [redacted], reviewer: [redacted]', placeholders: 2, holdsSecret: false });
    expect(fromThree.placeholders).toBe(3);
    expect(fromThree.holdsSecret).toBe(true);
  });

  it('should never leave a found secret in its output', () => {
    // Arrange
    const secrets = ['tok_9f2a7c31d4', 'Zm9vOmJhcg==', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'T1t_QhofQ146FB88XDZKACBpPRErcn10-0R8QmwkblZS5dyOD6hCECNC'];
    const text = `Bearer ${secrets[0]}\nAuthorization: Basic ${secrets[1]}\nkey ${secrets[2]}\ncsrf ${secrets[3]}`;

    // Act
    const { text: out } = redactText(text);

    // Assert
    for (const secret of secrets) expect(out).not.toContain(secret);
  });
});

describe('holdsSecret', () => {
  it('should agree with redactText', () => {
    for (const text of ['plain', 'Bearer tok_9f2a7c31d4', 'a@personal.io b@personal.io c@personal.io', 'a@personal.io']) {
      expect(holdsSecret(text)).toBe(redactText(text).holdsSecret);
    }
  });
});
