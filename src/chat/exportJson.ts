import type { InputItem } from "../relay/types";
import type { Conversation, Turn } from "./conversation";
import { activePath } from "./conversation";
import { titleOf } from "./conversationSummary";
import { tasksOf } from "./planState";
import type { TaskItem } from "../tools/updateTasksTool";
import { activeHistoryItems } from "./historyItems";

// The machine-readable export: `input` is exactly the item list the next message on this branch would be
// sent after (what the relay has been sent, unchanged, with a summary in place of the turns it replaced), and
// `turns` adds what only the client knows, the summarized turns and their summary (`turn.summary`) included,
// a message sent in Plan mode marked `"mode": "plan"`; `tasks` is the task list as it stands (empty: none).

export interface ConversationJsonExport {
  format: "relay-chat-conversation";
  schemaVersion: number;
  id: string;
  title: string;
  model: string;
  createdAt: string;
  updatedAt: string;
  input: InputItem[];
  turns: Turn[];
  tasks: TaskItem[];
}

/** `input` defaults to the stored items; the export passes them with images resolved to data URLs (see imageStore.ts). */
export function conversationToJson(conversation: Conversation, input: InputItem[] = activeHistoryItems(conversation)): string {
  const exported: ConversationJsonExport = {
    format: "relay-chat-conversation",
    schemaVersion: conversation.schemaVersion,
    id: conversation.id,
    title: titleOf(conversation),
    model: conversation.model,
    createdAt: new Date(conversation.createdAt).toISOString(),
    updatedAt: new Date(conversation.updatedAt).toISOString(),
    input,
    turns: activePath(conversation).map(withoutInstructionText),
    tasks: tasksOf(conversation),
  };
  return `${JSON.stringify(exported, null, 2)}\n`;
}

/**
 * A turn without the instruction text its requests kept for Copy as curl: that text holds the person's own
 * instructions and the workspace's rules, which an export to share should not carry unasked; the sources and
 * hash still say what went with each request.
 */
function withoutInstructionText(turn: Turn): Turn {
  if (!turn.requests.some((request) => request.instructions?.text !== undefined)) return turn;
  return { ...turn, requests: turn.requests.map((request) => (request.instructions ? { ...request, instructions: { sources: request.instructions.sources, hash: request.instructions.hash } } : request)) };
}
