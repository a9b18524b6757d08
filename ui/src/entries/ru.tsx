import dictionary from "../i18n/ru";
import { start } from "./start";

start("ru", dictionary);
