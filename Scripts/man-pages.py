#!/usr/bin/env python3
"""Finishes the man pages swift-argument-parser's generate-manual writes, writes
feedmill.toml(5), and lints them all.

generate-manual lists a `subcommand` argument and a `help` subcommand for every command,
ends with `.Ex -std` ("exits 0 on success, >0 on error") and an AUTHORS line ("was written
by ..."), quotes the one-line description, and writes paragraphs as blank lines and
sentences on one line (mandoc -T lint warns about both). Feedmill's commands have exit codes
of their own, documented once in each command's help text ("Exit status: 0 done; 1 ...;
64 ..."): that paragraph becomes the EXIT STATUS section, as a table. The sections a
Debian operator looks for are added here: OPTIONS, ENVIRONMENT (every variable an option
names in its help, plus the configuration search path, proxies, certificates, AWS_* for
rss-publish, JOURNAL_STREAM), FILES (the configuration search path, the data directory of
the Debian package, the units), EXAMPLES, SEE ALSO and AUTHORS.

Usage: man-pages.py fix PAGE [--has-subcommands]
       man-pages.py toml SETTINGS_TSV DATE OUT
       man-pages.py lint PAGE...      (mandoc -T lint -W warning; any message fails)
"""
import pathlib
import re
import subprocess
import sys

COMMANDS = ["rss-create", "rss-update", "rss-publish", "rss-inspect", "rss-feeds", "rss-pull", "rss-serve"]

# Real command lines, each with what it does. Lines for the Debian package's layout run as
# the service user: its data directory refuses writes from anyone else.
EXAMPLES = {
    "rss-create": [
        ("Import the feed list named in /etc/feedmill/feedmill.toml (opml) into the service's data directory:",
         "sudo -u feedmill rss-create"),
        ("Import a local list into ./data, removing feeds the list no longer has:",
         "rss-create --opml feeds.opml --data-dir ./data --prune"),
        ("Check which configuration file and values it would use:",
         "rss-create --print-config"),
    ],
    "rss-update": [
        ("Fetch the feeds that are due, as the service does:",
         "sudo -u feedmill rss-update"),
        ("Fetch feed 42 now, whatever its schedule, and log every feed:",
         "sudo -u feedmill rss-update --feed 42 --verbose"),
        ("Fetch and parse at most ten due feeds without writing anything:",
         "rss-update --dry-run --limit 10"),
        ("Show where each setting comes from:",
         "rss-update --print-config"),
    ],
    "rss-publish": [
        ("Publish into the directory named in the configuration (out):",
         "sudo -u feedmill rss-publish --quiet"),
        ("Publish to S3-compatible object storage, with absolute links in atom.xml:",
         "rss-publish --out s3://feeds-bucket/feedmill --site-url https://feeds.example.org/"),
        ("Republish every feed in full, as after restoring a backup:",
         "sudo -u feedmill rss-publish --full"),
    ],
    "rss-inspect": [
        ("One line about a feed on the web:",
         "rss-inspect --summary https://example.org/feed.xml"),
        ("The parsed and normalised items of a saved file, as JSON, with relative links resolved:",
         "rss-inspect --details --base https://example.org/ feed.xml"),
    ],
    "rss-feeds": [
        ("The catalog of the service's data directory:",
         "rss-feeds list --data-dir /var/lib/feedmill/data"),
        ("Add a feed (the next rss-update fetches it):",
         "sudo -u feedmill rss-feeds add https://example.org/feed.xml --title Example --category News/Tech"),
        ("Keep at most 100 items of feed 42:",
         "sudo -u feedmill rss-feeds set 42 --keep-items 100"),
        ("Export the catalog as OPML, ready for rss-create --opml:",
         "rss-feeds export > feeds.opml"),
    ],
    "rss-serve": [
        ("Serve the publication of the configuration (out) on 127.0.0.1:8080, live:",
         "sudo -u feedmill rss-serve"),
        ("Also subscribe to the feeds' WebSub hubs and publish what they push:",
         "sudo -u feedmill rss-serve --data-dir /var/lib/feedmill/data --public-url https://feeds.example.org"),
        ("Follow two feeds' events from a shell:",
         "rss-serve --listen 127.0.0.1:8080 --out ./publish & curl -N 'http://127.0.0.1:8080/events?feeds=42,7'"),
    ],
    "rss-pull": [
        ("Bring a local folder to the latest publication, every feed:",
         "rss-pull https://feeds.example.org/ ~/feeds"),
        ("Follow two feeds only, and print the result as JSON:",
         "rss-pull --feed 42 --feed 7 --json https://feeds.example.org/ ~/feeds"),
    ],
}

# Variables no option names, by the kind of command that reads them.
CONFIG_ENVIRONMENT = [
    ("FEEDMILL_CONFIG", "The configuration file when --config is not given; it must exist. "
     "The value none reads no file at all."),
    ("XDG_CONFIG_HOME", "Where the user's configuration file is looked for "
     "($XDG_CONFIG_HOME/feedmill/feedmill.toml); unset or empty: $HOME/.config."),
    ("HOME", "The user's home directory, for the user's configuration file."),
]
FETCH_ENVIRONMENT = [
    ("http_proxy, https_proxy, all_proxy, no_proxy",
     "The proxy for each fetch, as libcurl reads them, when proxy is not set (--proxy, FEEDMILL_PROXY or the file)."),
    ("CURL_CA_BUNDLE, SSL_CERT_FILE",
     "A certificate bundle to trust instead of the system's (CURL_CA_BUNDLE first)."),
    ("SSL_CERT_DIR", "A directory of certificates to trust as well."),
]
AWS_ENVIRONMENT = [
    ("AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN",
     "Credentials for an s3:// target; else the profile's in ~/.aws/credentials."),
    ("AWS_PROFILE", "The profile to read from the shared files (default: default)."),
    ("AWS_REGION, AWS_DEFAULT_REGION", "The region of the bucket; else the profile's."),
    ("AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL",
     "The endpoint of an S3-compatible server; else endpoint_url in ~/.aws/config, else AWS."),
    ("AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE",
     "Other places for ~/.aws/credentials and ~/.aws/config."),
]
JOURNAL_ENVIRONMENT = [
    ("JOURNAL_STREAM", "Set by systemd when standard error is the journal: then each line "
     "starts with its syslog priority (<3> error to <7> debug), so journalctl -p err finds the errors."),
]


def parse_exit_status(text):
    match = re.search(r"^Exit status: (.*)$", text, flags=re.M)
    if not match:
        return text
    items = []
    for part in match.group(1).rstrip(".").split("; "):
        code, _, meaning = part.partition(" ")
        items.append(".It " + code + "\n" + meaning[0].upper() + meaning[1:] + ".")
    table = ".Bl -tag -width 4n\n" + "\n".join(items) + "\n.El"
    text = text[: match.start()] + text[match.end() + 1 :]
    return text.replace(".Ex -std", table)


def drop_phantom_help(lines, has_subcommands):
    """The `help` subcommand and `subcommand` argument generate-manual invents."""
    out = []
    skip_help = False
    for line in lines:
        if not has_subcommands and line == ".Ar subcommand":
            continue
        if line == ".It Em help":
            skip_help = True
            continue
        if skip_help:
            if line == "Show subcommand help information.":
                continue
            if not has_subcommands and line.startswith(".Bl -tag -width 6n"):
                continue
            if not has_subcommands and line in (".It Ar subcommands...",):
                continue
            skip_help = False
        out.append(line)
    text = "\n".join(out)
    if not has_subcommands:
        # What remains of the empty subcommand list: a second --version entry and its .El.
        text = text.replace(
            "Show help information.\n.It Fl -version\nShow the version.\n.El\n.El\n", "Show help information.\n.El\n")
    else:
        # The help subcommand's own list, left after the last real subcommand.
        text = text.replace(".Bl -tag -width 6n\n.It Ar subcommands...\n.It Fl -version\nShow the version.\n.El\n", "")
    return text


def environment_from_options(text):
    """Each variable an option's help names ("env FEEDMILL_X"), with the options naming it."""
    found = {}
    option = None
    for line in text.split("\n"):
        if line.startswith(".It Fl "):
            option = "--" + line.split(" -", 1)[1].split(" ")[0] if " -" in line else None
        elif option and not line.startswith("."):
            for variable in re.findall(r"\benv ([A-Z][A-Z0-9_]+)", line):
                options = found.setdefault(variable, [])
                if option not in options and not option.startswith("--no-"):
                    options.append(option)
    return found


def list_block(entries):
    """A tagged list of variables; a name "A, B" is two variables described together."""
    parts = [".Bl -tag -width Ds"]
    for names, description in entries:
        parts.append(".It Ev " + names.replace(", ", " , Ev "))
        parts.append(description)
    parts.append(".El")
    return parts


def environment_section(command, text):
    options = environment_from_options(text)
    entries = []
    for variable in sorted(options, key=lambda v: (not v.startswith("FEEDMILL_"), v)):
        if variable == "SOURCE_DATE_EPOCH":
            entries.append((variable, "The current time, as --now gives it (reproducible runs)."))
        else:
            named = " and ".join(options[variable])
            entries.append((variable, "The value of " + named + " when the option is not given; "
                            "it wins over the configuration file."))
    has_config = "\n.It Fl -config Ar path\n" in text
    if has_config:
        entries = CONFIG_ENVIRONMENT[:1] + entries + CONFIG_ENVIRONMENT[1:]
    if "\n.It Fl -proxy " in text:
        entries += FETCH_ENVIRONMENT
    if command == "rss-publish":
        entries += AWS_ENVIRONMENT
    if "\n.It Fl -log-format " in text:
        entries += JOURNAL_ENVIRONMENT
    if not entries:
        return []
    return [".Sh ENVIRONMENT"] + list_block(entries)


def files_section(command, text):
    parts = [".Sh FILES"]
    if "\n.It Fl -config Ar path\n" in text:
        parts += [
            "The configuration file is the one",
            ".Fl -config",
            "names, else the one",
            ".Ev FEEDMILL_CONFIG",
            "names, else the first of these that exists (one file is read; files are not merged):",
            ".Bl -tag -width Ds",
            ".It Pa ./feedmill.toml",
            "In the current directory.",
            ".It Pa $XDG_CONFIG_HOME/feedmill/feedmill.toml",
            "The user's",
            "(unset or empty",
            ".Ev XDG_CONFIG_HOME :",
            ".Pa ~/.config/feedmill/feedmill.toml ) .",
            ".It Pa /etc/feedmill/feedmill.toml",
            "The system's, installed by the Debian package.",
            ".El",
            ".Pp",
            ".Fl -print-config",
            "names the file used and where each value came from.",
            ".Bl -tag -width Ds",
        ]
        if "\n.It Fl -data-dir " in text:
            parts += [
                ".It Pa /var/lib/feedmill/data",
                "The data directory of the Debian package's configuration, owned by the user",
                ".Sy feedmill",
                "(without a configuration file:",
                ".Pa ./data ) :",
                ".Pa all_feeds.sqlite",
                "(the catalog),",
                ".Pa feed_<id>.sqlite",
                "(one database per feed) and",
                ".Pa .feedmill.lock .",
                "Commands that write there are run as its owner, as in",
                ".Ql sudo -u feedmill " + command + " .",
            ]
        if command == "rss-serve":
            parts += [
                ".It Pa /var/lib/feedmill/data/websub.sqlite",
                "Its WebSub subscriptions and their secrets (mode 0600), with",
                ".Fl -public-url .",
                ".It Pa /usr/lib/systemd/system/feedmill-serve.service",
                "Runs",
                ".Nm rss-serve",
                "as",
                ".Sy feedmill",
                "once enabled.",
            ]
        if command in ("rss-publish", "rss-serve"):
            parts += [
                ".It Pa /var/www/feedmill",
                "The publish directory of the Debian package's configuration",
                "(without a configuration file:",
                ".Pa ./publish ) .",
            ]
        if command in ("rss-create", "rss-update", "rss-publish"):
            parts += [
                ".It Pa /usr/lib/systemd/system/feedmill-update.service , feedmill-update.timer",
                "Run",
                ".Nm rss-update",
                "and",
                ".Nm rss-publish",
                "as",
                ".Sy feedmill",
                "every 15 minutes once the timer is enabled;",
                ".Pa feedmill-update@.service",
                "and its timer run one shard each.",
                ".It Pa /usr/lib/systemd/system/feedmill-create.service",
                "Runs",
                ".Nm rss-create",
                "as",
                ".Sy feedmill",
                "when started.",
            ]
        parts = parts[:-1] if parts[-1] == ".Bl -tag -width Ds" else parts + [".El"]
    else:
        parts += [
            ".Bl -tag -width Ds",
            ".It Pa folder/all_feeds.sqlite",
            "The catalog, as published.",
            ".It Pa folder/feed_<id>.sqlite",
            "One database per followed feed.",
            ".It Pa folder/.feedmill-client.json",
            "What rss-pull wrote there: it touches no other file.",
            ".El",
        ]
    return parts


def examples_section(command):
    parts = [".Sh EXAMPLES"]
    for index, (description, line) in enumerate(EXAMPLES[command]):
        if index:
            parts.append(".Pp")
        parts.append(description)
        parts.append(".Bd -literal -offset indent")
        parts.append("$ " + line.replace("\\", "\\e"))
        parts.append(".Ed")
    return parts


def see_also_section(command):
    pages = [(name, 1) for name in COMMANDS if name != command]
    if command != "rss-pull":
        pages.append(("feedmill.toml", 5))
        pages += [("systemd.service", 5), ("systemd.timer", 5), ("journalctl", 1), ("systemctl", 1)]
    return see_also(pages)


def see_also(pages):
    pages = sorted(pages, key=lambda page: (page[1], page[0]))
    parts = [".Sh SEE ALSO"]
    for index, (name, section) in enumerate(pages):
        parts.append(".Xr " + name + " " + str(section) + (" ," if index < len(pages) - 1 else ""))
    return parts


AUTHORS = [".Sh AUTHORS", ".An The Feedmill developers"]


def split_sentences(line):
    """One sentence per line, as mdoc wants (mandoc: "new sentence, new line")."""
    if line.startswith(".") or line.startswith("'"):
        return [line]
    pieces = re.split(r"(?<=[.!?])([)\"'\]]*) +(?=\S)", line)
    sentences = []
    # re.split with a group: text, closing, text, closing, text...
    current = pieces[0]
    for index in range(1, len(pieces), 2):
        sentences.append(current + pieces[index])
        current = pieces[index + 1]
    sentences.append(current)
    return [("\\&" + s if s[:1] in (".", "'") else s) for s in sentences]


def tidy(text):
    """Paragraphs as .Pp, one sentence per line, no paragraph macro where mandoc skips it."""
    lines = []
    for line in text.split("\n"):
        if line == "":
            line = ".Pp"
        lines.extend(split_sentences(line))
    out = []
    for index, line in enumerate(lines):
        if line == ".Pp":
            following = next((l for l in lines[index + 1 :] if l != ".Pp"), "")
            if not out or out[-1] == ".Pp" or out[-1].startswith(".Sh") or out[-1].startswith(".Bl"):
                continue
            if following.startswith((".It", ".El", ".Sh", ".Bl")) or following == "":
                continue
        out.append(line)
    return "\n".join(out).rstrip("\n") + "\n"


def fix(path, has_subcommands):
    command = re.search(r"([^/]+)\.1$", path).group(1)
    text = open(path, encoding="utf-8").read()
    text = drop_phantom_help(text.split("\n"), has_subcommands)
    text = parse_exit_status(text)
    # NAME: a lower-case description without quotes or a full stop (whatis shows it as is).
    def name_line(match):
        description = match.group(1).rstrip(".")
        if not description[1:2].isupper():
            description = description[0].lower() + description[1:]
        return ".Nd " + description
    text = re.sub(r'^\.Nd "(.*)"$', name_line, text, flags=re.M)
    text = text.replace('.\\" "Generated by swift-argument-parser"',
                        '.\\" Generated by swift-argument-parser and Scripts/generate-docs: edit the command, not this page')
    text = text.replace('.Sh "EXIT STATUS"', ".Sh EXIT STATUS")
    text = text[: text.index("\n.Sh AUTHORS")] + "\n" if "\n.Sh AUTHORS" in text else text
    # OPTIONS: the option list generate-manual puts at the end of DESCRIPTION.
    description = text.index("\n.Sh DESCRIPTION\n")
    options = text.index("\n.Bl -tag -width 6n\n", description)
    heading = ".Sh OPTIONS AND COMMANDS" if has_subcommands else ".Sh OPTIONS"
    text = text[:options] + "\n" + heading + text[options:]
    exit_status = text.index("\n.Sh EXIT STATUS\n")
    before = text[:exit_status]
    middle = environment_section(command, text) + files_section(command, text)
    after = text[exit_status:].rstrip("\n")
    text = before + "\n" + "\n".join(middle) + after + "\n" + "\n".join(
        examples_section(command) + see_also_section(command) + AUTHORS) + "\n"
    open(path, "w", encoding="utf-8").write(tidy(text))


def toml(settings_path, date, out_path):
    rows = [line.split("\t") for line in open(settings_path, encoding="utf-8").read().splitlines() if line]
    def esc(text):
        return text.replace("\\", "\\e")
    parts = [
        '.\\" Generated by Scripts/generate-docs from the commands\' own settings',
        ".Dd " + date,
        ".Dt FEEDMILL.TOML 5",
        ".Os",
        ".Sh NAME",
        ".Nm feedmill.toml",
        ".Nd Feedmill configuration file",
        ".Sh DESCRIPTION",
        "Every Feedmill command reads its settings from the command line, then",
        ".Ev FEEDMILL_*",
        "environment variables, then this file, then built-in defaults;",
        ".Fl -print-config",
        "shows each effective value and where it came from.",
        ".Pp",
        "The file is",
        ".Fl -config Ar path ,",
        "else",
        ".Ev FEEDMILL_CONFIG",
        "(the value",
        ".Li none",
        "reads no file), else the first of these that exists:",
        ".Pa ./feedmill.toml ,",
        ".Pa $XDG_CONFIG_HOME/feedmill/feedmill.toml",
        "(unset or empty",
        ".Ev XDG_CONFIG_HOME :",
        ".Pa ~/.config/feedmill/feedmill.toml ) ,",
        ".Pa /etc/feedmill/feedmill.toml .",
        "One file is read; files are not merged.",
        "It is TOML 1.0 (read by toml++ through TOMLKit): comments, quoted keys,",
        "multi-line strings, CRLF line endings and a byte-order mark are all accepted.",
        "A file that is found always counts: a syntax error, an unknown key or section, a key set",
        "twice or a value of the wrong type stops the command with status 64 and the line to fix.",
        ".Pp",
        "Keys at the top level apply to every command; keys in a",
        ".Li [create] , [update] , [publish] , [inspect]",
        "or",
        ".Li [feeds]",
        "table apply to that command only, and win over the top level.",
        "Durations are written",
        ".Li 90s , 15m , 1h , 2d ;",
        "numbers and true/false bare, everything else quoted.",
        ".Sh SETTINGS",
        ".Bl -tag -width Ds",
    ]
    for key, env, default, summary in rows:
        parts.append(".It Ic " + key)
        parts.append(esc(summary))
        detail = "Default: " + (default if default else "none") + ". Environment: " + env + "."
        parts.append(".br")
        parts.append(esc(detail))
    parts += [
        ".El",
        ".Sh FILES",
        ".Bl -tag -width Ds",
        ".It Pa /etc/feedmill/feedmill.toml",
        "The system's file, installed by the Debian package as a conffile: the service's data",
        "directory",
        ".Pq Pa /var/lib/feedmill/data ,",
        "the feed list",
        ".Pq Pa /etc/feedmill/feeds.opml",
        "and the publish directory",
        ".Pq Pa /var/www/feedmill .",
        ".It Pa ~/.config/feedmill/feedmill.toml",
        "A user's own file.",
        ".El",
        ".Sh EXAMPLES",
        ".Bd -literal -offset indent",
        'data-dir = "/var/lib/feedmill/data"',
        'out = "/var/www/feedmill"',
        'contact = "mailto:feeds-admin@example.org"',
        'deadline = "12m"',
        "",
        "[update]",
        'stale-after = "1h"',
        "keep-items = 500",
        ".Ed",
    ]
    parts += see_also([(name, 1) for name in COMMANDS if name != "rss-pull"] + [("systemd-sysusers", 8), ("systemd-tmpfiles", 8)])
    parts += AUTHORS
    text = "\n".join(parts)
    # The literal example keeps its blank line: tidy() only where text is filled.
    head, _, tail = text.partition(".Bd -literal")
    example, _, rest = tail.partition(".Ed")
    open(out_path, "w", encoding="utf-8").write(tidy(head).rstrip("\n") + "\n.Bd -literal" + example + ".Ed" + "\n" + tidy(rest.lstrip("\n")))


def multicall(help_path, date, out_path):
    """feedmill(1): the one executable and its names, from `feedmill --help` (its COMMANDS
    lines), so the page lists what the executable dispatches."""
    commands = []
    for line in pathlib.Path(help_path).read_text(encoding="utf-8").splitlines():
        match = re.match(r"^  (\w+)\s+same as (rss-\w+)$", line)
        if match:
            commands.append(match.groups())
    lines = [
        '.\\" Generated by Scripts/generate-docs from feedmill --help: edit Sources/feedmill, not this page',
        f".Dd {date}",
        ".Dt FEEDMILL 1",
        ".Os",
        ".Sh NAME",
        ".Nm feedmill",
        ".Nd fetch feeds into SQLite databases and publish them for offline-first readers",
        ".Sh SYNOPSIS",
        ".Nm",
        ".Ar command",
        ".Op Ar arguments ...",
        ".Nm",
        ".Fl -help | Fl -version",
        ".Sh DESCRIPTION",
        ".Nm",
        "is every Feedmill command in one executable.",
        "Each command is also installed as a link to it with its familiar name, and called by that name it is that command:",
        ".Ql feedmill update --feed 2",
        "and",
        ".Ql rss-update --feed 2",
        "are the same command, with the same options, output, help and exit status.",
        "The commands:",
        ".Bl -tag -width 8n",
    ]
    for word, name in commands:
        lines += [f".It Cm {word}", f"the same as", f".Xr {name} 1 ."]
    lines += [
        ".El",
        ".Pp",
        ".Ql feedmill help Ar command",
        "prints the command's help.",
        ".Sh EXIT STATUS",
        "That of the command run; 64 when the first argument names no command.",
        ".Sh SEE ALSO",
        ", ".join(f".Xr {name} 1" for _, name in sorted(commands, key=lambda c: c[1])).replace(", .Xr", " ,\n.Xr") + " ,",
        ".Xr feedmill.toml 5",
        ".Sh AUTHORS",
        ".An The Feedmill developers",
    ]
    pathlib.Path(out_path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def lint(paths):
    """mandoc -T lint at warning level: any message is a failure (exit 1), printed."""
    status = 0
    for path in paths:
        result = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", path], capture_output=True, text=True)
        messages = (result.stdout + result.stderr).strip()
        if messages:
            print(messages)
            status = 1
    return status


if __name__ == "__main__":
    if sys.argv[1] == "fix":
        fix(sys.argv[2], "--has-subcommands" in sys.argv[3:])
    elif sys.argv[1] == "toml":
        toml(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "multicall":
        multicall(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "lint":
        sys.exit(lint(sys.argv[2:]))
    else:
        sys.exit(__doc__)
