import { hydrate } from "preact";
import { App } from "../app";
import dictionary from "../i18n/en";

document.documentElement.classList.add("js");
hydrate(<App language="en" dictionary={dictionary} />, document.getElementById("app") as HTMLElement);
