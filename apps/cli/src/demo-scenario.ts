import { textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { ScenarioFunction, ScriptedResponse } from '@a3s-lab/code-testing';

/** The command the scripted model runs the demo's tests with. */
export const DEMO_TEST_COMMAND = 'node test.js';

/** Options of {@link createDemoScenario}. */
export interface DemoScenarioOptions {
  /** Delay between streamed chunks, ms, so a human can watch it stream. Default 0. */
  readonly chunkDelayMs?: number;
  /** Delay before each response, ms ("thinking"). Default 0. */
  readonly latencyMs?: number;
}

/** A bug-fixing rule: a line pattern and how the line is rewritten. */
interface FixRule {
  readonly pattern: RegExp;
  readonly fix: (line: string) => string;
  readonly explain: string;
}

// The scripted model knows a few classic slips; it applies the first that matches inside the
// failing function, to the line it actually read (nothing is hard-coded about the file).
const FIX_RULES: readonly FixRule[] = [
  {
    pattern: /for \(let (\w+) = 1; \1 <=? /,
    fix: (line) => line.replace(/let (\w+) = 1;/, 'let $1 = 0;'),
    explain: 'the loop started at index 1 and skipped the first element',
  },
  {
    pattern: /(\w+) <= ([\w.]+)\.length/,
    fix: (line) => line.replace(/(\w+) <= ([\w.]+)\.length/, '$1 < $2.length'),
    explain: 'the loop ran one step past the end of the array',
  },
  {
    pattern: /\b(total|sum|acc)\s*-=\s*/,
    fix: (line) => line.replace(/-=/, '+='),
    explain: 'the accumulator subtracted instead of adding',
  },
];

/** A parsed `read` result: 1-based line number -> text. */
function readLines(output: string): Map<number, string> {
  const lines = new Map<number, string>();
  for (const raw of output.split('\n')) {
    const match = /^\s*(\d+)\t(.*)$/.exec(raw);
    if (match !== null) lines.set(Number(match[1]), match[2] as string);
  }
  return lines;
}

/** The fix the scripted model proposes for function `name` in the file it read, or null. */
export function proposeFix(readOutput: string, name: string): { readonly line: number; readonly oldLine: string; readonly newLine: string; readonly explain: string } | null {
  const lines = readLines(readOutput);
  const numbers = [...lines.keys()].sort((a, b) => a - b);
  const start = numbers.find((n) => new RegExp(`function ${name}\\s*\\(`).test(lines.get(n) ?? ''));
  if (start === undefined) return null;
  for (const n of numbers.filter((x) => x > start)) {
    const text = lines.get(n) as string;
    if (text === '}') break;
    const rule = FIX_RULES.find((r) => r.pattern.test(text));
    if (rule !== undefined) return { line: n, oldLine: text, newLine: rule.fix(text), explain: rule.explain };
  }
  return null;
}

const lastLine = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l.trim().length > 0 && !/^exit code: /.test(l))
    .at(-1) ?? '';
const passed = (testOutput: string): boolean => /^exit code: 0\b/m.test(testOutput);
/** Splits text into a few streamed pieces (word groups). */
const chunks = (text: string): string[] => text.match(/\S+\s*/g)?.reduce<string[]>((out, word, i) => (i % 3 === 0 ? [...out, word] : [...out.slice(0, -1), `${out.at(-1) ?? ''}${word}`]), []) ?? [text];

/**
 * The bundled scripted model of `a3s-code demo`: a scenario FUNCTION that reacts to the tool
 * results in each request, like a (very methodical) model would: run the tests, grep for the
 * failing function, read its file, edit the faulty line it found there, re-run the tests, and
 * summarise. When something does not go as expected it says so and stops, instead of pretending.
 */
export function createDemoScenario(options: DemoScenarioOptions = {}): ScenarioFunction {
  const timing = {
    ...(options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
  };
  const say = (text: string): ScriptedResponse => textResponse(chunks(text), timing);
  const call = (name: string, input: Record<string, unknown>, text: string): ScriptedResponse => toolCallResponse(name, input, { ...timing, text: chunks(text) });

  return (request) => {
    const results = toolResultsOf(request).map((r) => r.content);
    const [firstRun, grep, read, edit, secondRun] = results;
    if (firstRun === undefined) return call('bash', { command: DEMO_TEST_COMMAND }, 'Let me run the tests first to see what fails.\n');
    if (passed(firstRun)) return say('The tests already pass; there is nothing to fix.');
    const name = /^FAIL (\w+)\(/m.exec(firstRun)?.[1];
    if (name === undefined) return say(`The tests fail, but I cannot tell which function from the output:\n${lastLine(firstRun)}`);
    if (grep === undefined) {
      return call('grep', { pattern: `function ${name}\\b`, output_mode: 'content' }, `\`${name}\` returns the wrong value. Let me find where it is defined.\n`);
    }
    const file = new RegExp(`^([^:\\n]+):(\\d+):.*function ${name}\\b`, 'm').exec(grep)?.[1];
    if (file === undefined) return say(`I could not find the definition of \`${name}\`.`);
    if (read === undefined) return call('read', { file_path: file }, `It is in \`${file}\`. Reading it.\n`);
    const fix = proposeFix(read, name);
    if (fix === null) return say(`I read \`${file}\` but found no slip I recognise in \`${name}\`; it needs a human look.`);
    if (edit === undefined) {
      return call(
        'edit',
        { file_path: file, old_string: fix.oldLine, new_string: fix.newLine },
        `Found it: on line ${fix.line} ${fix.explain}. Fixing that line.\n`,
      );
    }
    if (!edit.startsWith('Made ')) return say(`The edit did not apply:\n${lastLine(edit)}`);
    if (secondRun === undefined) return call('bash', { command: DEMO_TEST_COMMAND }, 'Re-running the tests.\n');
    if (!passed(secondRun)) return say(`The tests still fail after the fix:\n${lastLine(secondRun)}`);
    return say(
      `Fixed \`${name}\` in \`${file}\` (line ${fix.line}): ${fix.explain}. ` +
        `Changed \`${fix.oldLine.trim()}\` to \`${fix.newLine.trim()}\`. Tests: ${lastLine(secondRun)}.`,
    );
  };
}
