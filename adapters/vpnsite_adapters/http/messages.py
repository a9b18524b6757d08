"""Human-readable texts of API errors in the five languages.

Clients match on ``code``; the English texts keep the phrases "Too many requests" and "already
been used" that older clients looked for. Numbers and dates in a detail are written as the
language writes them, and a wait (``seconds``) as a person says it, in ``{wait}`` ("in 10 minutes").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from vpnsite_adapters.formatting import format_date, format_number
from vpnsite_adapters.waits import format_wait

Texts = Mapping[str, str]

DETAILS: Mapping[str, Texts] = {
    "request_already_used": {
        "en": "This activation link has already been used.",
        "ru": "Эта ссылка активации уже использована.",
        "es": "Este enlace de activación ya se ha utilizado.",
        "fr": "Ce lien d’activation a déjà été utilisé.",
        "pt": "Este link de ativação já foi usado.",
    },
    "invalid_signature": {
        "en": "This sign-up request is not valid. Please enter your e-mail again.",
        "ru": "Этот запрос на регистрацию недействителен. Введите e-mail ещё раз.",
        "es": "Esta solicitud de registro no es válida. Introduce tu correo electrónico de nuevo.",
        "fr": "Cette demande d’inscription n’est pas valide. Saisissez de nouveau votre e-mail.",
        "pt": "Esta solicitação de cadastro não é válida. Digite seu e-mail novamente.",
    },
    "session_not_found": {
        "en": "That device is no longer connected.",
        "ru": "Это устройство уже не подключено.",
        "es": "Ese dispositivo ya no está conectado.",
        "fr": "Cet appareil n’est plus connecté.",
        "pt": "Esse dispositivo não está mais conectado.",
    },
    "profile_not_found": {
        "en": "No server offers that profile.",
        "ru": "Такого профиля нет ни на одном сервере.",
        "es": "Ningún servidor ofrece ese perfil.",
        "fr": "Aucun serveur ne propose ce profil.",
        "pt": "Nenhum servidor oferece esse perfil.",
    },
    "free_tier_full": {
        "en": "All {cap} free places are taken. New sign-ups will open again soon.",
        "ru": "Все {cap} бесплатных мест заняты. Регистрация скоро откроется снова.",
        "es": "Ya no quedan plazas gratuitas: las {cap} están ocupadas. El registro volverá a abrirse pronto.",
        "fr": "Les {cap} places gratuites sont toutes prises. Les inscriptions rouvriront bientôt.",
        "pt": "Todas as {cap} vagas gratuitas estão ocupadas. Novos cadastros abrirão em breve.",
    },
    "licence_not_found": {
        "en": "Activation code or e-mail not found.",
        "ru": "Код активации или e-mail не найден.",
        "es": "No se encontró el código de activación o el correo electrónico.",
        "fr": "Code d’activation ou e-mail introuvable.",
        "pt": "Código de ativação ou e-mail não encontrado.",
    },
    "request_expired": {
        "en": "This sign-up request has expired. Please enter your e-mail again.",
        "ru": "Срок действия запроса на регистрацию истёк. Введите e-mail ещё раз.",
        "es": "Esta solicitud de registro ha caducado. Introduce tu correo electrónico de nuevo.",
        "fr": "Cette demande d’inscription a expiré. Saisissez de nouveau votre e-mail.",
        "pt": "Esta solicitação de cadastro expirou. Digite seu e-mail novamente.",
    },
    "rate_limited": {
        "en": "Too many requests. Please try again {wait}.",
        "ru": "Слишком много запросов. Повторите попытку {wait}.",
        "es": "Demasiadas solicitudes. Inténtalo de nuevo {wait}.",
        "fr": "Trop de requêtes. Réessayez {wait}.",
        "pt": "Muitas solicitações. Tente novamente {wait}.",
    },
    "not_renewable_yet": {
        "en": "This licence can be renewed from {opens}, seven days before it ends.",
        "ru": "Эту лицензию можно продлить с {opens}, за семь дней до окончания.",
        "es": "Esta licencia se puede renovar a partir del {opens}, siete días antes de que termine.",
        "fr": "Cette licence pourra être renouvelée à partir du {opens}, sept jours avant son terme.",
        "pt": "Esta licença pode ser renovada a partir de {opens}, sete dias antes do fim.",
    },
    "renewal_closed": {
        "en": "This licence ended more than 30 days ago. Get a new free licence on the home page.",
        "ru": "Эта лицензия закончилась более 30 дней назад. Получите новую бесплатную лицензию на главной странице.",
        "es": "Esta licencia terminó hace más de 30 días. Consigue una nueva licencia gratuita en la página principal.",
        "fr": "Cette licence a pris fin il y a plus de 30 jours. Obtenez une nouvelle licence gratuite sur la page d’accueil.",
        "pt": "Esta licença terminou há mais de 30 dias. Obtenha uma nova licença gratuita na página inicial.",
    },
    "node_unauthorized": {
        "en": "A valid server token is required.",
        "ru": "Нужен действительный токен сервера.",
        "es": "Se necesita un token de servidor válido.",
        "fr": "Un jeton de serveur valide est requis.",
        "pt": "É necessário um token de servidor válido.",
    },
    "metrics_unauthorized": {
        "en": "A valid metrics token is required.",
        "ru": "Нужен действительный токен метрик.",
        "es": "Se necesita un token de métricas válido.",
        "fr": "Un jeton de métriques valide est requis.",
        "pt": "É necessário um token de métricas válido.",
    },
    "invalid_json": {
        "en": "The request body is not valid JSON.",
        "ru": "Тело запроса не является корректным JSON.",
        "es": "El cuerpo de la solicitud no es un JSON válido.",
        "fr": "Le corps de la requête n’est pas un JSON valide.",
        "pt": "O corpo da solicitação não é um JSON válido.",
    },
    "unsupported_media_type": {
        "en": "Send the request body as JSON (Content-Type: application/json).",
        "ru": "Отправьте тело запроса в формате JSON (Content-Type: application/json).",
        "es": "Envía el cuerpo de la solicitud como JSON (Content-Type: application/json).",
        "fr": "Envoyez le corps de la requête en JSON (Content-Type: application/json).",
        "pt": "Envie o corpo da solicitação como JSON (Content-Type: application/json).",
    },
    "payload_too_large": {
        "en": "The request body is larger than {limit} KB.",
        "ru": "Тело запроса больше {limit}\u00a0КБ.",
        "es": "El cuerpo de la solicitud supera los {limit}\u00a0KB.",
        "fr": "Le corps de la requête dépasse {limit}\u00a0Ko.",
        "pt": "O corpo da solicitação passa de {limit}\u00a0KB.",
    },
    "bad_request": {
        "en": "The request could not be understood.",
        "ru": "Не удалось разобрать запрос.",
        "es": "No se pudo interpretar la solicitud.",
        "fr": "La requête n’a pas pu être comprise.",
        "pt": "Não foi possível entender a solicitação.",
    },
    "not_found": {
        "en": "Not found.",
        "ru": "Не найдено.",
        "es": "No encontrado.",
        "fr": "Introuvable.",
        "pt": "Não encontrado.",
    },
    "method_not_allowed": {
        "en": "This method is not allowed here.",
        "ru": "Этот метод здесь не поддерживается.",
        "es": "Este método no está permitido aquí.",
        "fr": "Cette méthode n’est pas autorisée ici.",
        "pt": "Este método não é permitido aqui.",
    },
    "unavailable": {
        "en": "The service is briefly unavailable. Please try again in a moment.",
        "ru": "Сервис временно недоступен. Повторите попытку через минуту.",
        "es": "El servicio no está disponible temporalmente. Inténtalo de nuevo dentro de unos instantes.",
        "fr": "Le service est momentanément indisponible. Réessayez dans un instant.",
        "pt": "O serviço está temporariamente indisponível. Tente novamente em instantes.",
    },
    "internal_error": {
        "en": "Something went wrong on our side. Please try again.",
        "ru": "У нас что-то пошло не так. Повторите попытку.",
        "es": "Algo ha fallado por nuestra parte. Inténtalo de nuevo.",
        "fr": "Un problème est survenu de notre côté. Veuillez réessayer.",
        "pt": "Algo deu errado do nosso lado. Tente novamente.",
    },
}

# What a field failed: the ``msg`` of a validation error item.
FIELD_ERRORS: Mapping[str, Texts] = {
    "not_an_address": {
        "en": "Expected IP addresses or networks.",
        "ru": "Здесь нужно указать IP-адреса или сети.",
        "es": "Este campo debe contener direcciones IP o redes.",
        "fr": "Ce champ doit contenir des adresses IP ou des réseaux.",
        "pt": "Este campo precisa conter endereços IP ou redes.",
    },
    "network_too_wide": {
        "en": "An exit network may be no wider than a /24 (IPv4) or a /48 (IPv6).",
        "ru": "Сеть выхода может быть не шире /24 (IPv4) или /48 (IPv6).",
        "es": "Una red de salida no puede ser más amplia que un /24 (IPv4) o un /48 (IPv6).",
        "fr": "Un réseau de sortie ne peut pas être plus large qu’un /24 (IPv4) ou un /48 (IPv6).",
        "pt": "Uma rede de saída não pode ser mais ampla que um /24 (IPv4) ou um /48 (IPv6).",
    },
    "too_many": {
        "en": "Too many items.",
        "ru": "Слишком много элементов.",
        "es": "Demasiados elementos.",
        "fr": "Trop d’éléments.",
        "pt": "Itens demais.",
    },
    "missing": {
        "en": "This field is required.",
        "ru": "Это поле обязательно.",
        "es": "Este campo es obligatorio.",
        "fr": "Ce champ est obligatoire.",
        "pt": "Este campo é obrigatório.",
    },
    "wrong_type": {
        "en": "Expected {expected}.",
        "ru": "Здесь нужно указать {expected}.",
        "es": "Este campo debe contener {expected}.",
        "fr": "Ce champ doit contenir {expected}.",
        "pt": "Este campo precisa conter {expected}.",
    },
    "invalid_characters": {
        "en": "Contains characters that are not text (a NUL or an unpaired surrogate).",
        "ru": "Содержит символы, которые не являются текстом (NUL или непарный суррогат).",
        "es": "Contiene caracteres que no son texto (un NUL o un sustituto sin pareja).",
        "fr": "Contient des caractères qui ne sont pas du texte (un NUL ou un substitut isolé).",
        "pt": "Contém caracteres que não são texto (um NUL ou um substituto sem par).",
    },
    "too_long": {
        "en": "At most {limit} characters.",
        "ru": "Не более {limit} символов.",
        "es": "Como máximo {limit} caracteres.",
        "fr": "{limit} caractères au maximum.",
        "pt": "No máximo {limit} caracteres.",
    },
    "email_invalid": {
        "en": "Enter a valid e-mail address.",
        "ru": "Введите корректный адрес e-mail.",
        "es": "Introduce una dirección de correo electrónico válida.",
        "fr": "Saisissez une adresse e-mail valide.",
        "pt": "Digite um endereço de e-mail válido.",
    },
    "email_too_long": {
        "en": "An e-mail address has at most 254 characters.",
        "ru": "Адрес e-mail не может быть длиннее 254 символов.",
        "es": "Una dirección de correo electrónico tiene como máximo 254 caracteres.",
        "fr": "Une adresse e-mail compte 254 caractères au maximum.",
        "pt": "Um endereço de e-mail tem no máximo 254 caracteres.",
    },
    "code_format": {
        "en": "The activation code has 20 digits.",
        "ru": "Код активации состоит из 20 цифр.",
        "es": "El código de activación tiene 20 dígitos.",
        "fr": "Le code d’activation comporte 20 chiffres.",
        "pt": "O código de ativação tem 20 dígitos.",
    },
    "code_mistyped": {
        "en": "This activation code contains a typo. Please check the 20 digits.",
        "ru": "В коде активации опечатка. Проверьте все 20 цифр.",
        "es": "Este código de activación tiene un error. Revisa los 20 dígitos.",
        "fr": "Ce code d’activation contient une faute de frappe. Vérifiez les 20 chiffres.",
        "pt": "Este código de ativação tem um erro de digitação. Confira os 20 dígitos.",
    },
    "out_of_range": {
        "en": "The value is out of range.",
        "ru": "Значение вне допустимого диапазона.",
        "es": "El valor está fuera de rango.",
        "fr": "La valeur est hors limites.",
        "pt": "O valor está fora do intervalo.",
    },
    "message_too_long": {
        "en": "Please keep the message under {limit} characters.",
        "ru": "Сообщение должно быть короче {limit} символов.",
        "es": "El mensaje debe tener menos de {limit} caracteres.",
        "fr": "Le message doit faire moins de {limit} caractères.",
        "pt": "A mensagem deve ter menos de {limit} caracteres.",
    },
}

TYPE_NAMES: Mapping[str, Texts] = {
    "string": {"en": "a string", "ru": "текст", "es": "texto", "fr": "du texte", "pt": "um texto"},
    "integer": {
        "en": "a whole number",
        "ru": "целое число",
        "es": "un número entero",
        "fr": "un nombre entier",
        "pt": "um número inteiro",
    },
    "number": {"en": "a number", "ru": "число", "es": "un número", "fr": "un nombre", "pt": "um número"},
    "boolean": {
        "en": "true or false",
        "ru": "true или false",
        "es": "true o false",
        "fr": "true ou false",
        "pt": "true ou false",
    },
    "object": {
        "en": "an object",
        "ru": "объект JSON",
        "es": "un objeto JSON",
        "fr": "un objet JSON",
        "pt": "um objeto JSON",
    },
}


def _localised(params: Mapping[str, object], language: str) -> dict[str, object]:
    def one(value: object) -> object:
        if isinstance(value, date):
            return format_date(value, language)
        if isinstance(value, int) and not isinstance(value, bool):
            return format_number(value, language)
        return value

    localised = {name: one(value) for name, value in params.items()}
    seconds = params.get("seconds")
    if isinstance(seconds, int):
        # A rate limit's wait as a person says it: "in 10 minutes", never "in 589 s".
        localised["wait"] = format_wait(seconds, language)
    return localised


def detail_text(code: str, language: str, **params: object) -> str:
    texts = DETAILS.get(code, DETAILS["internal_error"])
    return texts.get(language, texts["en"]).format(**_localised(params, language))


def field_text(kind: str, language: str, **params: object) -> str:
    texts = FIELD_ERRORS[kind]
    if "expected" in params:
        names = TYPE_NAMES[str(params["expected"])]
        params = {**params, "expected": names.get(language, names["en"])}
    return texts.get(language, texts["en"]).format(**_localised(params, language))
