// Entry point of media/dist/highlighter.js: highlight.js with the languages answers use most. A separate
// script the webview loads only once a code block is finished, so opening the panel never pays for it.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import plaintext from "highlight.js/lib/languages/plaintext";
import powershell from "highlight.js/lib/languages/powershell";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scss from "highlight.js/lib/languages/scss";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { highlighterGlobalName } from "./highlighterContract";
import type { Highlighter } from "./highlighterContract";

const languages = {
  bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, makefile, markdown, php,
  plaintext, powershell, python, ruby, rust, scss, shell, sql, swift, typescript, xml, yaml,
};
for (const [name, definition] of Object.entries(languages)) hljs.registerLanguage(name, definition);
// Names models use that highlight.js does not know as aliases.
hljs.registerAliases(["jsonc", "json5"], { languageName: "json" });
hljs.registerAliases(["vue", "svelte"], { languageName: "xml" });
hljs.registerAliases(["toml"], { languageName: "ini" });

const highlighter: Highlighter = {
  highlight(code, language) {
    const name = language.toLowerCase();
    if (name === "" || hljs.getLanguage(name) === undefined) return undefined;
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  },
};

(globalThis as unknown as Record<string, Highlighter>)[highlighterGlobalName] = highlighter;
