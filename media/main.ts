// Entry point of the chat panel's webview (bundled to media/dist/webview.js). The host owns all state:
// this page renders the snapshot it gets after `ready`, then applies patches and appends streamed text.
import type { PanelState, ToWebview } from "../src/panel/protocol";
import { isToWebview } from "../src/panel/protocolGuards";
import { configureCodeBlocks } from "./render/codeBlocks";
import { configureFileReferences } from "./render/fileReferences";
import type { FileReferenceLinker } from "./render/fileReferences";
import { focusOnArrival } from "./panel/focusArrival";
import { HostChannel } from "./panel/hostChannel";
import { DraftCommandTeller } from "./panel/draftCommand";
import type { SavedViewState } from "./panel/hostChannel";
import { Localizer } from "./panel/localizer";
import { PanelStore } from "./panel/panelStore";
import { PanelView } from "./panel/panelView";

class PanelApp {
  private readonly host = new HostChannel();
  private view: PanelView | null = null;
  private store: PanelStore | null = null;
  private localizer = new Localizer({});
  private stringsSignature = "";
  private renderedOnce = false;
  /** The message box and the place in the conversation, saved as they change (VS Code keeps them across reloads). */
  private saved: SavedViewState;
  private fileReferences: FileReferenceLinker | null = null;
  /** The host hears the draft's slash command as it is typed (its prompt and tools go with the next request). */
  private readonly draftCommand = new DraftCommandTeller((message) => this.host.post(message));

  constructor(private readonly mount: HTMLElement) {
    this.saved = this.host.savedState();
  }

  start(): void {
    configureCodeBlocks({ post: (message) => this.host.post(message), text: (english) => this.localizer.text(english) });
    this.fileReferences = configureFileReferences((message) => this.host.post(message));
    window.addEventListener("message", (event: MessageEvent<unknown>) => this.receive(event.data));
    document.addEventListener("keydown", (event) => this.view?.handleDocumentKeydown(event));
    document.addEventListener("copy", (event) => this.view?.handleCopy(event));
    focusOnArrival(() => this.view?.focusInputUnlessDialog());
    this.host.post({ type: "ready" });
    // A draft kept across a reload that starts with a command counts from the start.
    this.draftCommand.tell(this.saved.draft ?? "");
  }

  private receive(data: unknown): void {
    if (!isToWebview(data)) {
      this.host.logError(`Ignored an unknown message: ${describe(data)}`);
      return;
    }
    try {
      this.handle(data);
    } catch (error) {
      // A malformed state must not leave the page dead; the host's log says what broke.
      this.host.logError(`Rendering "${data.type}" failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  private handle(message: ToWebview): void {
    switch (message.type) {
      case "snapshot":
        this.store = new PanelStore(message.state);
        this.render(message.state, message.strings, message.locale);
        return;
      case "patch": {
        // Patches follow a snapshot; one before it has nothing to apply to.
        if (this.store === null || this.view === null) return;
        const applied = this.store.apply(message.changes);
        this.view.applyPatch(this.store.state, applied);
        return;
      }
      case "answerDelta":
        // A delta for a turn that is not streaming here is stale: the turn's next patch carries its text.
        this.view?.appendAnswer(message.turnId, message.text);
        return;
      case "contentWait":
        this.view?.showContentWait(message.turnId, message.seconds);
        return;
      case "focusInput":
        this.view?.focusInput();
        return;
      case "showHistory":
        this.view?.showHistory();
        return;
      case "fileMatches":
        this.view?.showFileMatches(message.query, message.files);
        return;
      case "fileReferences":
        this.fileReferences?.checked(message.checked, message.files);
        return;
      case "image":
        this.view?.showImage(message.name, message.dataUrl);
        return;
      case "attachmentText":
        this.view?.showAttachmentText(message.target, message.attachment);
        return;
      default:
        unreachable(message);
    }
  }

  private save(change: Partial<SavedViewState>): void {
    const { edit, place, ...rest } = { ...this.saved, ...change };
    // Absent parts are left out, not saved as undefined.
    const next: SavedViewState = { ...rest, ...(edit === undefined ? {} : { edit }), ...(place === undefined ? {} : { place }) };
    this.saved = next;
    this.host.saveState(next);
  }

  private render(state: PanelState, strings: Record<string, string>, locale: string): void {
    // Labels are set when elements are built, so new strings (another display language) rebuild the panel.
    const stringsSignature = JSON.stringify([strings, locale]);
    if (this.view === null || stringsSignature !== this.stringsSignature) {
      this.stringsSignature = stringsSignature;
      this.localizer = new Localizer(strings, locale);
      this.view = new PanelView({
        localizer: this.localizer,
        post: (message) => this.host.post(message),
        saveDraft: (draft) => {
          this.save({ draft: draft.draft, edit: draft.edit });
          this.draftCommand.tell(draft.draft);
        },
        initialDraft: this.saved,
        savePlace: (place) => this.save({ place: place ?? undefined }),
        initialPlace: this.saved.place ?? null,
      });
      this.mount.replaceChildren(this.view.root);
      this.view.render(state);
      // The host marks the page when the message box should take focus as soon as it exists.
      if (document.body.hasAttribute("data-initial-focus") && (document.activeElement === null || document.activeElement === document.body)) this.view.focusInput();
    } else {
      this.view.render(state);
    }
    if (!this.renderedOnce) {
      this.renderedOnce = true;
      this.host.post({ type: "rendered", sinceLoadMs: performance.now() });
    }
  }
}

function unreachable(message: never): never {
  throw new Error(`Unknown message ${JSON.stringify(message)}`);
}

function describe(data: unknown): string {
  try {
    return (JSON.stringify(data) ?? String(data)).slice(0, 200);
  } catch {
    return typeof data;
  }
}

const mount = document.getElementById("app") ?? document.body.appendChild(document.createElement("div"));
new PanelApp(mount).start();
