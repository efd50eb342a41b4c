/** The structured (JSON) lines in what a process or a captured stdout wrote, parsed; other output is skipped. */
export function jsonLines(output: string | string[]): Record<string, any>[] {
  return (Array.isArray(output) ? output.join('') : output)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
