import dictionary from "../i18n/pt";
import { start } from "./start";

start("pt", dictionary, {
  screens: () => import("../i18n/screens/pt").then((module) => module.default),
  text: () => import("../content/text/pt").then((module) => module.default),
});
