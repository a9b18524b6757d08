import dictionary from "../i18n/ru";
import { start } from "./start";

start("ru", dictionary, {
  screens: () => import("../i18n/screens/ru").then((module) => module.default),
  text: () => import("../content/text/ru").then((module) => module.default),
});
