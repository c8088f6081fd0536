import type { Command } from 'commander';

/** A command as completion sees it: its words, its options and the commands below it. */
export interface CompletionNode {
  name: string;
  aliases: string[];
  description: string;
  options: string[];
  commands: CompletionNode[];
}

export type Shell = 'bash' | 'zsh' | 'fish';

/** The completion tree of a commander program (help commands left out). */
export function completionTree(command: Command): CompletionNode {
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description().split('\n')[0] ?? '',
    options: command.options
      .flatMap((o) => [o.short, o.long].filter((f): f is string => !!f))
      .concat('--help'),
    commands: command.commands.filter((c) => c.name() !== 'help').map(completionTree),
  };
}

/** Every command path below the root, with what may follow it: `create gittrack` → its options. */
function paths(node: CompletionNode, prefix: string[] = []): Array<{ path: string[]; words: string[] }> {
  const here = {
    path: prefix,
    words: [...node.commands.flatMap((c) => [c.name, ...c.aliases]), ...node.options],
  };
  return [
    here,
    ...node.commands.flatMap((c) => [c.name, ...c.aliases].flatMap((n) => paths(c, [...prefix, n]))),
  ];
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

function bash(root: CompletionNode): string {
  const cases = paths(root)
    .map(({ path, words }) => `    ${quote(path.join(' '))}) words=${quote(words.join(' '))} ;;`)
    .join('\n');
  return `# bash completion for ${root.name}: source <(${root.name} completion bash)
_${root.name}_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" next words i w
  # The command path: each word that names a command below the path so far.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    if _${root.name}_words "$next" >/dev/null; then cmdpath="$next"; fi
  done
  words="$(_${root.name}_words "$cmdpath")"
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
_${root.name}_words() {
  local words
  case "$1" in
${cases}
    *) return 1 ;;
  esac
  echo "$words"
}
complete -o default -F _${root.name}_complete ${root.name}
# Aliases of ${root.name} defined before this runs (alias lk=${root.name}) complete as it does; for one
# defined later: complete -o default -F _${root.name}_complete lk
while read -r _${root.name}_alias; do
  complete -o default -F _${root.name}_complete "$_${root.name}_alias"
done < <(alias -p | sed -n "s/^alias \\([^=]*\\)='\\(npx \\)\\{0,1\\}${root.name}\\( [^']*\\)\\{0,1\\}'$/\\1/p")
unset _${root.name}_alias
`;
}

function zsh(root: CompletionNode): string {
  const cases = paths(root)
    .map(({ path, words }) => `    ${quote(path.join(' '))}) reply=(${words.map(quote).join(' ')}) ;;`)
    .join('\n');
  return `#compdef ${root.name}
# zsh completion for ${root.name}: source <(${root.name} completion zsh), or save it as _${root.name} in $fpath
_${root.name}_words() {
  case "$1" in
${cases}
    *) return 1 ;;
  esac
}
_${root.name}() {
  # Not "path": in zsh that is $PATH.
  local cmdpath="" next w
  local -a reply
  for w in \${words[2,CURRENT-1]}; do
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    if _${root.name}_words "$next"; then cmdpath="$next"; fi
  done
  _${root.name}_words "$cmdpath"
  compadd -- $reply
}
compdef _${root.name} ${root.name}
# An alias (alias lk=${root.name}) completes as ${root.name}: zsh expands it first, unless
# complete_aliases is set; then: compdef lk=${root.name}
`;
}

/** Every command path, with what may follow it: each word with its description (empty for options). */
function describedPaths(
  node: CompletionNode,
  prefix: string[] = [],
): Array<{ path: string[]; node: CompletionNode }> {
  return [
    { path: prefix, node },
    ...node.commands.flatMap((c) => [c.name, ...c.aliases].flatMap((n) => describedPaths(c, [...prefix, n]))),
  ];
}

/**
 * fish: one function finds the command path typed, as in bash, from the words after the first
 * (whatever name ran it: an alias or a wrapper completes the same); commands carry their
 * description. Files are offered only where no command may follow.
 */
function fish(root: CompletionNode): string {
  const fn = `__${root.name}`;
  const cases = describedPaths(root)
    .map(({ path, node }) => {
      const words = [
        ...node.commands.flatMap((c) => [c.name, ...c.aliases].map((n) => `${n}\t${c.description}`)),
        ...node.options,
      ];
      const leaf = node.commands.length === 0 ? ` ${quote('leaf')}` : '';
      return `    case ${quote(path.join(' '))}\n      printf '%s\\n'${leaf} ${words.map(quote).join(' ')}`;
    })
    .join('\n');
  return `# fish completion for ${root.name}: ${root.name} completion fish | source
# An alias (alias lk=${root.name}) or a wrapper (complete -c lk -w ${root.name}) completes as ${root.name}.
function ${fn}_words
  switch $argv[1]
${cases}
    case '*'
      return 1
  end
end
function ${fn}_path
  set -l cmdpath ''
  for w in (commandline -opc)[2..-1]
    string match -q -- '-*' $w; and continue
    set -l next (string trim -- "$cmdpath $w")
    ${fn}_words $next >/dev/null; and set cmdpath $next
  end
  echo $cmdpath
end
function ${fn}_complete
  ${fn}_words (${fn}_path) | string match -v leaf
end
function ${fn}_at_leaf
  ${fn}_words (${fn}_path) | string match -q leaf
end
complete -c ${root.name} -f -n 'not ${fn}_at_leaf' -a '(${fn}_complete)'
complete -c ${root.name} -n '${fn}_at_leaf' -a '(${fn}_complete)'
`;
}

/** A completion script for `shell`, generated from the program's own commands and options. */
export function completionScript(shell: Shell, root: CompletionNode): string {
  return { bash, zsh, fish }[shell](root);
}
