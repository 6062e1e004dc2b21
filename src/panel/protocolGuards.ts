// The runtime checks of what crosses postMessage, on both sides: the host checks every message the webview
// posts field by field, the webview the shape of what it is about to index into. Compiled on both sides.
import type { AttachmentTarget, ContextSource, ImageUpload, PanelChange, ToHost, ToWebview, TurnView } from "./protocol";
import { ATTACHMENT_KINDS, CONTEXT_SOURCES, FIX_ACTIONS, IMAGE_MEDIA_TYPES, MAX_IMAGES_PER_MESSAGE, MAX_IMAGE_BASE64_CHARS, MAX_TURNS_PER_LOAD } from "./protocol";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isIndex = (value: unknown): value is number => isNumber(value) && Number.isInteger(value) && value >= 0;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isImageList = (value: unknown): value is ImageUpload[] =>
  Array.isArray(value) &&
  value.length <= MAX_IMAGES_PER_MESSAGE &&
  value.every(
    (image) =>
      isRecord(image) &&
      (IMAGE_MEDIA_TYPES as readonly unknown[]).includes(image.mediaType) &&
      isString(image.data) &&
      image.data.length > 0 &&
      image.data.length <= MAX_IMAGE_BASE64_CHARS &&
      BASE64.test(image.data),
  );

function isAttachmentTarget(value: unknown): value is AttachmentTarget {
  if (!isRecord(value)) return false;
  switch (value.place) {
    case "pending":
      return isString(value.id);
    case "activeFile":
      return true;
    case "sent":
      return isString(value.turnId) && isIndex(value.index);
    default:
      return false;
  }
}

/** Field checks per message type; anything else that crosses postMessage is ignored and logged. */
const TO_HOST_FIELDS: { [K in ToHost["type"]]: (message: Record<string, unknown>) => boolean } = {
  ready: () => true,
  rendered: (message) => isNumber(message.sinceLoadMs),
  send: (message) => isString(message.text) && (message.images === undefined || isImageList(message.images)),
  stop: () => true,
  newChat: () => true,
  selectModel: (message) => isString(message.model) && (message.relay === undefined || isString(message.relay)),
  refreshModels: () => true,
  approval: (message) => isString(message.callId) && (message.answer === "approve" || message.answer === "deny" || message.answer === "allow_session" || message.answer === "always_allow" || message.answer === "read_only_always"),
  retry: (message) => isString(message.turnId),
  useChatCompletions: (message) => isString(message.turnId),
  continue: (message) => isString(message.turnId),
  includeTurn: (message) => isString(message.turnId),
  resendWithoutImages: (message) => isString(message.turnId),
  regenerate: (message) => isString(message.turnId),
  editAndResend: (message) => isString(message.turnId) && isString(message.text),
  showBranch: (message) => isString(message.turnId) && (message.direction === -1 || message.direction === 1),
  copyText: (message) => isString(message.text),
  copyCurl: (message) => isString(message.turnId) && isIndex(message.receiptIndex),
  turnChanges: (message) => isString(message.turnId) && (message.action === "review" || message.action === "restore" || message.action === "undoRestore"),
  openLink: (message) => isString(message.href),
  findFileReferences: (message) => isStringList(message.paths),
  openFileReference: (message) => isString(message.path) && (message.line === null || (isIndex(message.line) && message.line > 0)),
  insertCode: (message) => isString(message.code),
  openCode: (message) => isString(message.code) && isString(message.language),
  applyCode: (message) => isString(message.code) && isString(message.language) && isString(message.file) && isString(message.turnId),
  switchConversation: (message) => isString(message.conversationId),
  loadTurns: (message) => isString(message.conversationId) && isStringList(message.turnIds) && message.turnIds.length <= MAX_TURNS_PER_LOAD,
  renameConversation: (message) => isString(message.conversationId),
  deleteConversation: (message) => isString(message.conversationId),
  exportConversation: (message) => isString(message.conversationId),
  attachSelection: () => true,
  attachFile: () => true,
  showInstructions: (message) => message.draft === undefined || isString(message.draft),
  draftCommand: (message) => isString(message.text),
  setRuleFile: (message) => isString(message.id) && message.id.length > 0 && typeof message.on === "boolean",
  attachPath: (message) => isString(message.path),
  findFiles: (message) => isString(message.query),
  attachContext: (message) =>
    CONTEXT_SOURCES.includes(message.source as ContextSource) && (message.path === undefined || isString(message.path)) && (message.name === undefined || isString(message.name)),
  removeAttachment: (message) => isString(message.id),
  openAttachment: (message) => isAttachmentTarget(message.target),
  removeActiveFile: () => true,
  loadImage: (message) => isString(message.name),
  confirmSend: (message) => typeof message.confirmed === "boolean",
  setMode: (message) => message.mode === "plan" || message.mode === "act",
  actOnPlan: (message) => isString(message.turnId),
  editTask: (message) => (message.action === "toggle" || message.action === "remove") && isIndex(message.index) && isString(message.text),
  fix: (message) => isString(message.action) && (FIX_ACTIONS as readonly string[]).includes(message.action) && (message.turnId === undefined || isString(message.turnId)),
  log: (message) => (message.level === "info" || message.level === "error") && isString(message.message),
};

export function isToHost(value: unknown): value is ToHost {
  if (!isRecord(value) || !isString(value.type) || !Object.prototype.hasOwnProperty.call(TO_HOST_FIELDS, value.type)) return false;
  return TO_HOST_FIELDS[value.type as ToHost["type"]](value);
}

// The webview checks the shape of what it is about to index into; the contents of a turn are rendered as
// text (never as markup), so a wrong value inside shows wrong, it cannot run.
function isTurnView(value: unknown): value is TurnView {
  return (
    isRecord(value) &&
    isString(value.id) &&
    isString(value.answerText) &&
    Array.isArray(value.receipts) &&
    Array.isArray(value.toolCalls) &&
    Array.isArray(value.actions) &&
    Array.isArray(value.attachments) &&
    Array.isArray(value.reasoningSummaries)
  );
}

function isPanelChange(value: unknown): value is PanelChange {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case "fields":
      return isRecord(value.fields);
    case "turn":
      return isTurnView(value.turn);
    case "turnOrder":
      return isStringList(value.turnIds);
    case "receipt":
      return isString(value.turnId) && isIndex(value.index) && isRecord(value.receipt);
    case "approvals":
      return Array.isArray(value.approvals) && value.approvals.every(isRecord);
    default:
      return false;
  }
}

export function isToWebview(value: unknown): value is ToWebview {
  if (!isRecord(value) || !isString(value.type)) return false;
  switch (value.type) {
    case "snapshot":
      return (
        isString(value.locale) &&
        isRecord(value.state) &&
        Array.isArray(value.state.turns) &&
        value.state.turns.every(isTurnView) &&
        Array.isArray(value.state.approvals) &&
        isRecord(value.state.setup) &&
        isRecord(value.strings)
      );
    case "patch":
      return Array.isArray(value.changes) && value.changes.every(isPanelChange);
    case "answerDelta":
      return isString(value.turnId) && isString(value.text);
    case "contentWait":
      return isString(value.turnId) && (value.seconds === null || (typeof value.seconds === "number" && Number.isFinite(value.seconds) && value.seconds >= 0));
    case "focusInput":
    case "showHistory":
      return true;
    case "fileMatches":
      return isString(value.query) && Array.isArray(value.files) && value.files.every((file) => isRecord(file) && isString(file.path));
    case "fileReferences":
      return isStringList(value.checked) && isStringList(value.files);
    case "image":
      return isString(value.name) && (value.dataUrl === null || isString(value.dataUrl));
    case "attachmentText":
      return (
        isAttachmentTarget(value.target) &&
        (value.attachment === null ||
          (isRecord(value.attachment) && isString(value.attachment.text) && isString(value.attachment.label) && isNumber(value.attachment.tokens) && ATTACHMENT_KINDS.includes(value.attachment.kind as never)))
      );
    default:
      return false;
  }
}
