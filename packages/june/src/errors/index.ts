export { JuneError } from "./june-error.js";
