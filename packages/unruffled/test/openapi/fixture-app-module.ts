// A module exporting apps the way an application's `app.ts` does, for the `unruffled openapi` command.
import { envelopeValidationHandler, fixtureApp } from "./fixture-app.ts";

export const app = fixtureApp();
export const envelopeApp = fixtureApp({ exceptionHandlers: [envelopeValidationHandler] });
