import { describe, expect, it } from 'vitest';
import { baseUrlFromConfigToml, codexPosition, takeBaseUrlArg, withBaseUrl } from '../../src/cli/codex-target.js';

describe('codexPosition', () => {
  it.each([
    ['codex', [], -1],
    ['/usr/local/bin/codex', ['exec', 'hi'], -1],
    ['node_modules/.bin/codex.js', [], -1],
    ['npx', ['-y', '@openai/codex', 'exec'], 1],
    ['npx', ['-y', '@openai/codex@0.169.0'], 1],
    ['pnpm', ['dlx', 'codex'], 1],
    ['node', ['/opt/codex/bin/codex.js', 'exec'], 0],
  ])('should find Codex in %s %j at %i', (command, args, at) => {
    // Arrange: the command line.

    // Act
    const position = codexPosition(command, args);

    // Assert
    expect(position).toBe(at);
  });

  it.each([
    ['claude', ['--resume']],
    ['npx', ['-y', '@anthropic-ai/claude-code']],
    ['sh', ['-c', 'codex exec hi']],
    ['codexx', []],
  ])('should not take %s %j for Codex', (command, args) => {
    // Arrange: the command line.

    // Act
    const position = codexPosition(command, args);

    // Assert
    expect(position).toBeUndefined();
  });
});

describe('takeBaseUrlArg', () => {
  it.each([
    [['-c', 'openai_base_url="https://gw.example/v1"', 'exec'], 'https://gw.example/v1'],
    [['--config', "openai_base_url='https://gw.example/v1'", 'exec'], 'https://gw.example/v1'],
    [['--config=openai_base_url="https://gw.example/v1"', 'exec'], 'https://gw.example/v1'],
    [['-copenai_base_url=https://gw.example/v1', 'exec'], 'https://gw.example/v1'],
    [['exec', '-c', ' openai_base_url = "https://gw.example/v1" '], 'https://gw.example/v1'],
  ])("should take the user's base URL out of %j", (args, url) => {
    // Arrange: the arguments.

    // Act
    const taken = takeBaseUrlArg(args);

    // Assert
    expect(taken.baseUrl).toBe(url);
    expect(taken.rest).toEqual(['exec']);
  });

  it('should leave every other setting alone, the last base URL winning', () => {
    // Arrange
    const args = ['-c', 'model="o3"', '-c', 'openai_base_url="https://a/v1"', 'exec', '-c', 'openai_base_url="https://b/v1"', '-c'];

    // Act
    const taken = takeBaseUrlArg(args);

    // Assert
    expect(taken).toEqual({ baseUrl: 'https://b/v1', rest: ['-c', 'model="o3"', 'exec', '-c'] });
  });
});

describe('baseUrlFromConfigToml', () => {
  it('should read a top-level openai_base_url, with a comment after it', () => {
    // Arrange
    const toml = 'model = "gpt-5"\n# a comment\nopenai_base_url = "https://gw.example/v1" # mine\n\n[profiles.x]\nopenai_base_url = "https://other/v1"\n';

    // Act
    const url = baseUrlFromConfigToml(toml);

    // Assert
    expect(url).toBe('https://gw.example/v1');
  });

  it.each([
    ['no such key', 'model = "gpt-5"\n'],
    ['the key only inside a table', '[model_providers.openai]\nopenai_base_url = "https://x/v1"\n'],
    ['a value that is not a string', 'openai_base_url = 3\n'],
  ])('should read nothing when there is %s', (_what, toml) => {
    // Arrange: the file.

    // Act
    const url = baseUrlFromConfigToml(toml);

    // Assert
    expect(url).toBeUndefined();
  });

  it('should read a literal string', () => {
    // Arrange
    const toml = "openai_base_url = 'https://gw.example/v1'\r\n";

    // Act
    const url = baseUrlFromConfigToml(toml);

    // Assert
    expect(url).toBe('https://gw.example/v1');
  });
});

describe('withBaseUrl', () => {
  it('should put -c openai_base_url right after the word that runs Codex', () => {
    // Arrange
    const url = 'http://127.0.0.1:8787';

    // Act
    const direct = withBaseUrl(['exec', 'hi'], -1, url);
    const viaNpx = withBaseUrl(['-y', '@openai/codex', 'exec'], 1, url);

    // Assert
    expect(direct).toEqual(['-c', 'openai_base_url="http://127.0.0.1:8787"', 'exec', 'hi']);
    expect(viaNpx).toEqual(['-y', '@openai/codex', '-c', 'openai_base_url="http://127.0.0.1:8787"', 'exec']);
  });
});
