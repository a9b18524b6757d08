import { hydrate } from "preact";
import { App } from "../app";
import dictionary from "../i18n/ru";

document.documentElement.classList.add("js");
hydrate(<App language="ru" dictionary={dictionary} />, document.getElementById("app") as HTMLElement);
