import "../first-load";
import { Link } from "wouter";
import { useI18n } from "../i18n/context";
import { localPath } from "../lib/language";

export function NotFound() {
  const { language, t } = useI18n();
  return (
    <section class="container narrow center">
      <p class="eyebrow">404</p>
      <h1>{t("notFound.title")}</h1>
      <p class="lead">{t("notFound.text")}</p>
      <Link href={localPath("/", language)} class="button">{t("notFound.home")}</Link>
    </section>
  );
}
