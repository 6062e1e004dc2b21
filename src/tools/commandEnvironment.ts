// The environment run_command passes to the shell: the editor's own, minus anything that looks like a
// credential. A command the model proposed must not be able to print the relay key (`env`, `echo $...`) or
// other tokens into its output, which goes to the relay, the history and the panel.

/** Never passed, whatever the settings say: the key is for the relay, not for tools. */
export const relayKeyVariable = "RELAY_CHAT_API_KEY";

/**
 * Names that usually hold credentials: API keys, tokens, secrets, passwords, passphrases, credentials,
 * authorization values, cookies, private keys. Matched anywhere in the name, ignoring case, so
 * GITHUB_TOKEN, npm_config__authToken, AWS_SECRET_ACCESS_KEY and DB_PASSWORD are all caught.
 */
export const secretLookingName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|PRIVATE/i;

/** A URL with a user and password in it (`https://user:pass@host`), as proxies and database URLs carry them. */
const credentialsInUrl = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i;

export interface CommandEnvironmentOptions {
  /** Names the user allowed through (the relayChat.tools.commandEnvironment.allow setting). */
  readonly allowedNames: readonly string[];
  /** Values that must never reach a command, such as the relay key in use; a variable holding one is left out. */
  readonly secrets: readonly (string | null | undefined)[];
}

export interface CommandEnvironment {
  readonly env: NodeJS.ProcessEnv;
  /** Names left out, sorted, so the tool can say why a command may have missed one. */
  readonly removedNames: string[];
}

export function commandEnvironment(base: NodeJS.ProcessEnv, options: CommandEnvironmentOptions): CommandEnvironment {
  // Windows treats variable names case-insensitively; elsewhere PATH and Path are different variables.
  const normalize = (name: string): string => (process.platform === "win32" ? name.toUpperCase() : name);
  const allowed = new Set(options.allowedNames.map(normalize));
  const secrets = options.secrets.filter((secret): secret is string => typeof secret === "string" && secret.length >= 6);
  const env: NodeJS.ProcessEnv = {};
  const removedNames: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const holdsRelayKey = normalize(name) === normalize(relayKeyVariable) || secrets.some((secret) => value.includes(secret));
    const looksSecret = secretLookingName.test(name) || credentialsInUrl.test(value);
    if (holdsRelayKey || (looksSecret && !allowed.has(normalize(name)))) {
      removedNames.push(name);
      continue;
    }
    env[name] = value;
  }
  return { env, removedNames: removedNames.sort() };
}
