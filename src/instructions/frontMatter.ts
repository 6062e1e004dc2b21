// The YAML front matter of rules files (`---` lines around `key: value` pairs). Only flat keys with a
// string value or a list of strings are read: that is all the rules formats use, and a full YAML parser
// would be a dependency for nothing.

export interface FrontMatter {
  fields: ReadonlyMap<string, string | string[]>;
  body: string;
}

export function parseFrontMatter(text: string): FrontMatter {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { fields: new Map(), body: text };
  const fields = new Map<string, string | string[]>();
  let listKey: string | null = null;
  for (const line of match[1].split(/\r?\n/)) {
    const item = /^\s+-\s*(.*)$/.exec(line);
    if (item && listKey !== null) {
      const list = fields.get(listKey);
      if (Array.isArray(list)) list.push(unquote(item[1]));
      continue;
    }
    const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const value = pair[2].trim();
    if (value === "") {
      fields.set(pair[1], []);
      listKey = pair[1];
    } else if (value.startsWith("[") && value.endsWith("]")) {
      fields.set(pair[1], value.slice(1, -1).split(",").map(unquote).filter((entry) => entry !== ""));
      listKey = null;
    } else {
      fields.set(pair[1], unquote(value));
      listKey = null;
    }
  }
  return { fields, body: text.slice(match[0].length) };
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed[trimmed.length - 1] === trimmed[0]) return trimmed.slice(1, -1);
  return trimmed;
}
