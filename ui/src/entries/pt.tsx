import dictionary from "../i18n/pt";
import { start } from "./start";

start("pt", dictionary);
