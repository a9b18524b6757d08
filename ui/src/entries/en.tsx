import dictionary from "../i18n/en";
import { start } from "./start";

start("en", dictionary);
