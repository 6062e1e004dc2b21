import { element } from "./dom";

// Codicons (VS Code's icon font, bundled with the webview: media/dist/codicon.css). An icon is decoration:
// the control around it carries the accessible name.

export function icon(name: string, className = ""): HTMLElement {
  return element("span", { className: `codicon codicon-${name}${className ? ` ${className}` : ""}`, attributes: { "aria-hidden": "true" } });
}

/** A button that shows only an icon; `label` is its accessible name and its tooltip. */
export function iconButton(iconName: string, label: string, onClick: (event: MouseEvent) => void, className = ""): HTMLButtonElement {
  const created = element("button", { className: `icon-button${className ? ` ${className}` : ""}`, attributes: { "aria-label": label, title: label } }, [icon(iconName)]);
  created.type = "button";
  created.addEventListener("click", onClick);
  return created;
}
