import dictionary from "../i18n/fr";
import { start } from "./start";

start("fr", dictionary, {
  screens: () => import("../i18n/screens/fr").then((module) => module.default),
  text: () => import("../content/text/fr").then((module) => module.default),
});
