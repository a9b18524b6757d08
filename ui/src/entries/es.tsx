import dictionary from "../i18n/es";
import { start } from "./start";

start("es", dictionary, {
  screens: () => import("../i18n/screens/es").then((module) => module.default),
  text: () => import("../content/text/es").then((module) => module.default),
});
