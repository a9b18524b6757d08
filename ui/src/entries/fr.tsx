import dictionary from "../i18n/fr";
import { start } from "./start";

start("fr", dictionary);
