import dictionary from "../i18n/en";
import { start } from "./start";

start("en", dictionary, {
  screens: () => import("../i18n/screens/en").then((module) => module.default),
  text: () => import("../content/text/en").then((module) => module.default),
});
