import type { Command } from 'commander';

const helpFlags = new Set(['-h', '--help']);

function findOption(command: Command, flag: string) {
  return command.options.find((o) => o.long === flag || o.short === flag);
}

/**
 * What is wrong with a quoted command line (the words after `lightkeeper`) against the CLI's
 * commands and options, or undefined when every command and flag it names exists. Operands and
 * option values are not checked; a `<placeholder>` command ends the check.
 */
export function checkQuotedCommand(program: Command, words: readonly string[]): string | undefined {
  let command = program;
  let operands = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') break;
    if (word.startsWith('-')) {
      const flag = word.split('=')[0]!;
      const option = findOption(command, flag) ?? findOption(program, flag);
      if (!option && !helpFlags.has(flag))
        return `${command === program ? 'lightkeeper' : `lightkeeper ${command.name()}`} has no option ${flag}`;
      if (option && (option.required || option.optional) && !word.includes('=')) i++;
      continue;
    }
    if (/^<.*>$/.test(word) && command.commands.length > 0) return undefined;
    if (operands === 0 && (command.commands.length > 0 || command === program)) {
      if (command === program && word === 'help') continue;
      const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (!sub)
        return `${command === program ? 'lightkeeper' : `lightkeeper ${command.name()}`} has no command ${word}`;
      command = sub;
      continue;
    }
    operands++;
  }
  return undefined;
}
