import { hydrate } from "preact";
import { App } from "../app";
import dictionary from "../i18n/pt";

document.documentElement.classList.add("js");
hydrate(<App language="pt" dictionary={dictionary} />, document.getElementById("app") as HTMLElement);
