import dictionary from "../i18n/es";
import { start } from "./start";

start("es", dictionary);
