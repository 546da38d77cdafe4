/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, pinned to 0.1.13, the last that
 * runs on Node 20) in `server` mode against the real service, scenario by scenario.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { describe, test } from 'node:test';
import { promisify, stripVTControlCharacters } from 'node:util';
import { startService } from '../support/app.ts';

const CLI = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

/** The scenarios that apply to a stateless server that offers tools only. */
const APPLY = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/** The others, and why they do not apply. */
const DO_NOT_APPLY: Record<string, string> = {
  'tools-call-simple-text': "calls the reference server's fixture tool (test_simple_text); ours mirror REST routes",
  'tools-call-image': 'a fixture tool answering an image; no mod97 answer is an image',
  'tools-call-audio': 'a fixture tool answering audio',
  'tools-call-embedded-resource': 'a fixture tool answering an embedded resource; the server offers no resources',
  'tools-call-mixed-content': 'a fixture tool answering mixed content',
  'tools-call-error': 'a fixture tool that always fails; refusals as isError results are tested in metering.test.ts',
  'tools-call-with-logging': 'needs the logging capability and notifications during a call: stateless JSON answers',
  'tools-call-with-progress': 'needs progress notifications during a call: stateless JSON answers carry none',
  'tools-call-sampling': 'needs a server-to-client request during a call: impossible without a session',
  'tools-call-elicitation': 'needs a server-to-client request during a call: impossible without a session',
  'elicitation-sep1034-defaults': 'elicitation, as above',
  'elicitation-sep1330-enums': 'elicitation, as above',
  'json-schema-2020-12': "looks for the reference server's fixture tool json_schema_2020_12_tool",
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'the server declares no completions (it has no prompts or resource templates)',
  'server-sse-polling': 'needs a session and SSE streams; this server is stateless and answers JSON (GET is 405)',
  'server-sse-multiple-streams': 'needs a session and SSE streams, as above',
  'resources-list': 'the server offers tools only',
  'resources-read-text': 'the server offers tools only',
  'resources-read-binary': 'the server offers tools only',
  'resources-templates-read': 'the server offers tools only',
  'resources-subscribe': 'the server offers tools only',
  'resources-unsubscribe': 'the server offers tools only',
  'prompts-list': 'the server offers tools only',
  'prompts-get-simple': 'the server offers tools only',
  'prompts-get-with-args': 'the server offers tools only',
  'prompts-get-embedded-resource': 'the server offers tools only',
  'prompts-get-with-image': 'the server offers tools only',
};

const run = promisify(execFile);
const plain = stripVTControlCharacters;

describe('MCP conformance (server mode)', () => {
  test('every server scenario of the suite is either run here or named as not applying', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'list']);
    const listed = plain(stdout)
      .split('Client scenarios')[0]
      .split('\n')
      .flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
    assert.ok(listed.length > 0);
    assert.deepEqual([...listed].sort(), [...APPLY, ...Object.keys(DO_NOT_APPLY)].sort());
  });

  for (const scenario of APPLY) {
    test(`${scenario} passes`, async () => {
      const svc = await startService();
      const { stdout } = await run(
        process.execPath,
        [CLI, 'server', '--url', `${svc.url}/mcp`, '--scenario', scenario],
        {
          timeout: 60_000,
        },
      ).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(`${scenario} failed:\n${plain(`${err.stdout ?? ''}${err.stderr ?? ''}`)}`);
      });
      const result = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(plain(stdout));
      assert.ok(result, plain(stdout));
      const [, passed, total, failed, warnings] = result.map(Number);
      assert.ok(total > 0, plain(stdout));
      assert.deepEqual([passed, failed, warnings], [total, 0, 0], plain(stdout));
    });
  }
});
