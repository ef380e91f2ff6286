# Completes command lines in a real interactive zsh, as a user pressing Tab would, and writes what
# zsh offered. Used by ShellCompletionIT:
#   zsh -f zsh-complete.zsh SCRIPT DIR OUT LINE...
# starts `zsh -f -i` on a pseudo-terminal (zsh/zpty) in DIR, runs compinit and sources SCRIPT (the
# output of `jobc completion zsh`), then for each LINE types it, presses the key bound to
# complete-word, and appends to OUT: "line:LINE", one "match:M" per match zsh's completion
# functions offered for the word under the cursor, "buffer:B" (the line after completion) and
# "end". Each line is followed by a command whose output this script waits for, so the next line
# starts only when zsh has finished the previous one: no sleeps, no timing.
zmodload zsh/zpty || exit 2
script=$1 dir=$2 out=$3
shift 3
zpty jobc zsh -f -i || exit 2
zpty -w jobc "PS1='%% '; cd ${(q)dir} && autoload -Uz compinit && compinit -u -D"
zpty -w jobc "source ${(q)script}; OUT=${(q)out}"
# Every match a completion function adds: compadd -A fills an array with the matches its
# arguments would add for the current word, without adding them; calls that only ask (-O, -A,
# -D) are passed on untouched.
zpty -w jobc 'compadd() { if (( ! ${@[(I)-[OAD]]} )); then local -a m; builtin compadd -A m "$@"; (( $#m )) && print -rl -- "match:"${^m} >>$OUT; fi; builtin compadd "$@"; }'
zpty -w jobc 'jobc-test-complete() { zle complete-word; print -r -- "buffer:$BUFFER" >>$OUT; print -r -- end >>$OUT; BUFFER=; }'
zpty -w jobc 'zle -N jobc-test-complete && bindkey "^T" jobc-test-complete'
n=0
for line in "$@"; do
  (( n++ ))
  print -r -- "line:$line" >>$out
  zpty -w -n jobc "$line"$'\x14'
  # The shell prints done-N only after the completion above has run; the typed text reads
  # done-$((...)), so the echo of the command itself does not match.
  zpty -w jobc "print -r -- done-\$(( $n + 1000 ))"
  zpty -r jobc reply "*done-$(( n + 1000 ))*" || exit 3
done
zpty -d jobc
