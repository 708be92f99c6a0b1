function __rss-create_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-create_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __rss-create_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-create_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __rss-create_parse_tokens -S
    set -l unparsed_tokens (__rss-create_tokens -pc)
    switch $unparsed_tokens[1]
    case 'rss-create'
        __rss-create_parse_subcommand 0 'opml=' 'base=' 'prune' 'rebuild-catalog' 'shard=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'data-dir=' 'concurrency=' 'per-host=' 'deadline=' 'metrics-file=' 'keep-items=' 'keep-days=' 'allow-private-networks' 'no-allow-private-networks' 'contact=' 'timeout=' 'proxy=' 'max-size=' 'record=' 'replay=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __rss-create_parse_subcommand -r 1 'version'
        end
    end
end

function __rss-create_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __rss-create_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __rss-create_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __rss-create_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__rss-create_tokens -p)
    if test -z "$(__rss-create_tokens -t)"
        set -l index (count (__rss-create_tokens -pc))
        set tokens $tokens[..$index] '' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'rss-create' -f
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" opml' -l 'opml' -d 'The feed list: an OPML file path or http(s) URL. (default: feeds.opml; env FEEDMILL_OPML)' -rfa '(set -l exts \'opml\' \'xml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" base' -l 'base' -d 'Resolve relative xmlUrl values in the feed list against this http(s) URL.' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" prune' -l 'prune' -d 'Remove feeds that are no longer in the list (and their databases).'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" rebuild-catalog' -l 'rebuild-catalog' -d 'Rebuild a lost catalog from the feed databases beside it.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" shard' -l 'shard' -d 'Work on shard K of N only: the feeds whose host hashes to K (docs/sharding.md); 1/1 is every feed. (default: 1/1; env FEEDMILL_SHARD)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-create_complete_directories)'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" concurrency' -l 'concurrency' -d 'Transfers in flight at most (1-256). (default: 16; env FEEDMILL_CONCURRENCY)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" per-host' -l 'per-host' -d 'Transfers in flight to one host at most. (default: 2; env FEEDMILL_PER_HOST)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" deadline' -l 'deadline' -d 'Start no feed after this long (90s, 15m, 1h); feeds not started are left for the next run. (default: no deadline; env FEEDMILL_DEADLINE)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" metrics-file' -l 'metrics-file' -d 'Write Prometheus text-format metrics here (node_exporter\'s textfile collector), atomically. (default: none written; env FEEDMILL_METRICS_FILE)' -rF
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" keep-items' -l 'keep-items' -d 'Keep at most this many items per feed, newest first; items the feed still lists are always kept. (default: all; env FEEDMILL_KEEP_ITEMS)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" keep-days' -l 'keep-days' -d 'Keep items published within this many days; items the feed still lists are always kept. (default: all; env FEEDMILL_KEEP_DAYS)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" allow-private-networks' -l 'allow-private-networks' -d 'Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery). (default: false; env FEEDMILL_ALLOW_PRIVATE_NETWORKS)'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" no-allow-private-networks' -l 'no-allow-private-networks' -d 'Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery). (default: false; env FEEDMILL_ALLOW_PRIVATE_NETWORKS)'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" contact' -l 'contact' -d 'A URL where publishers can reach you, sent in the User-Agent. (default: https://github.com/feedmill/feedmill; env FEEDMILL_CONTACT)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" timeout' -l 'timeout' -d 'Seconds one fetch may take, redirects included (at most a day). (default: 60; env FEEDMILL_TIMEOUT)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" proxy' -l 'proxy' -d 'Forward proxy for every fetch (http://host:port), or none to fetch directly. (default: http_proxy, https_proxy, all_proxy and no_proxy from the environment; env FEEDMILL_PROXY)' -rfka 'none'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" max-size' -l 'max-size' -d 'Largest feed accepted, in MiB, after decompression (1-1024). (default: 16; env FEEDMILL_MAX_SIZE)' -rfka ''
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" record' -l 'record' -d 'Fetch from the network and store every response (status, headers, body) in this directory, content-addressed.' -rfa '(__rss-create_complete_directories)'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" replay' -l 'replay' -d 'Answer every fetch from a directory written by --record, with no network; a request never recorded fails.' -rfa '(__rss-create_complete_directories)'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" version' -l 'version' -d 'Show the version.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_positional "rss-create" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'rss-create' -n '__rss-create_should_offer_completions_for_flags_or_options "rss-create help" version' -l 'version' -d 'Show the version.'
