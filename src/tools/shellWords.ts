// A small, careful POSIX shell word splitter for the approval rules: it turns a command line into the simple
// commands the shell would run, each as the words the program receives (quotes removed, whitespace collapsed),
// or says it cannot (null). It never guesses: anything whose words depend on the shell's state at run time
// (variables, command substitution, globs, brace expansion, here-documents, subshells, unbalanced quotes) makes the
// whole line unreducible, and such a line always needs a card.
// Redirections are dropped with their target (they do not change which program runs).

/** The simple commands of a line, each a list of words; null when the line cannot be reduced safely. */
export function splitCommandLine(line: string): string[][] | null {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quoted = false;
  let skipNextWord = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (skipNextWord) skipNextWord = false;
    else words.push(word);
    word = "";
    inWord = false;
    quoted = false;
  };
  const endCommand = (): boolean => {
    endWord();
    if (skipNextWord) return false;
    if (words.length > 0) commands.push(words);
    words = [];
    return true;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === " " || c === "\t") {
      endWord();
      i++;
    } else if (c === "\n" || c === ";" || c === "|" || c === "&") {
      if (!endCommand()) return null;
      i++;
    } else if (c === "<" || c === ">") {
      // An fd number written right before the operator (2>) belongs to the redirection.
      if (inWord && !quoted && /^[0-9]*$/.test(word)) {
        word = "";
        inWord = false;
      } else endWord();
      if (line.startsWith("<<", i)) return null; // a here-document: its body is read from later lines
      i++;
      if (line[i] === ">" || line[i] === "&" || line[i] === "|") i++;
      if (line[i - 1] === "&" && /[0-9-]/.test(line[i] ?? "")) {
        while (/[0-9-]/.test(line[i] ?? "")) i++; // 2>&1: the target is an fd, not a word
        continue;
      }
      skipNextWord = true;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word += line.slice(i + 1, end);
      inWord = true;
      quoted = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return null;
        const d = line[i];
        if (d === '"') break;
        if (d === "$" || d === "`") return null;
        if (d === "\\") {
          const next = line[i + 1];
          if (next === undefined) return null;
          if (next === "\n") i += 2;
          else if (next === '"' || next === "\\" || next === "$" || next === "`") {
            word += next;
            i += 2;
          } else {
            word += d;
            i++;
          }
          continue;
        }
        word += d;
        i++;
      }
      inWord = true;
      quoted = true;
      i++;
    } else if (c === "\\") {
      const next = line[i + 1];
      if (next === undefined) return null;
      if (next === "\n") {
        i += 2; // a line continuation joins the two lines
        continue;
      }
      word += next;
      inWord = true;
      quoted = true;
      i += 2;
    } else if (c === "#" && !inWord) {
      // A comment runs to the end of the line.
      const end = line.indexOf("\n", i);
      if (end < 0) break;
      i = end;
    } else if (c === "$" || c === "`" || c === "(" || c === ")" || c === "*" || c === "?" || c === "[" || c === "{" || c === "}") {
      // Expansions, subshells, globs and braces: the words are only known when the shell runs the line.
      return null;
    } else if (c === "\r" || c < " " || c === "\x7f") {
      return null;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (!endCommand()) return null;
  return commands;
}
