// Browser side of the focus arrival test: the module as the panel's page runs it, given to the test's page.
import { focusOnArrival } from "../../../media/panel/focusArrival";

declare global {
  interface Window {
    focusOnArrival: typeof focusOnArrival;
  }
}

window.focusOnArrival = focusOnArrival;
