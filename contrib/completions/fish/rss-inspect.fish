function __rss-inspect_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-inspect_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __rss-inspect_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-inspect_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __rss-inspect_parse_tokens -S
    set -l unparsed_tokens (__rss-inspect_tokens -pc)
    switch $unparsed_tokens[1]
    case 'rss-inspect'
        __rss-inspect_parse_subcommand 1 'base=' 'details' 'summary' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'allow-private-networks' 'no-allow-private-networks' 'contact=' 'timeout=' 'proxy=' 'max-size=' 'record=' 'replay=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __rss-inspect_parse_subcommand -r 1 'version'
        end
    end
end

function __rss-inspect_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __rss-inspect_parse_subcommand -S -a positional_count
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

function __rss-inspect_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __rss-inspect_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__rss-inspect_tokens -p)
    if test -z "$(__rss-inspect_tokens -t)"
        set -l index (count (__rss-inspect_tokens -pc))
        set tokens $tokens[..$index] '' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'rss-inspect' -f
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_positional "rss-inspect" -eq 1' -F
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" base' -l 'base' -d 'Resolve relative links against this URL (default: the URL fetched, or the feed\'s own link for a file).' -rfka ''
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" details' -l 'details' -d 'Also print the version, encoding, recovered XML errors, scheduling hints and id sources.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" summary' -l 'summary' -d 'Print one line (format, title, item counts, encoding, problems) instead of JSON.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" allow-private-networks' -l 'allow-private-networks' -d 'Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery). (default: false; env FEEDMILL_ALLOW_PRIVATE_NETWORKS)'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" no-allow-private-networks' -l 'no-allow-private-networks' -d 'Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery). (default: false; env FEEDMILL_ALLOW_PRIVATE_NETWORKS)'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" contact' -l 'contact' -d 'A URL where publishers can reach you, sent in the User-Agent. (default: https://github.com/feedmill/feedmill; env FEEDMILL_CONTACT)' -rfka ''
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" timeout' -l 'timeout' -d 'Seconds one fetch may take, redirects included (at most a day). (default: 60; env FEEDMILL_TIMEOUT)' -rfka ''
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" proxy' -l 'proxy' -d 'Forward proxy for every fetch (http://host:port), or none to fetch directly. (default: http_proxy, https_proxy, all_proxy and no_proxy from the environment; env FEEDMILL_PROXY)' -rfka 'none'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" max-size' -l 'max-size' -d 'Largest feed accepted, in MiB, after decompression (1-1024). (default: 16; env FEEDMILL_MAX_SIZE)' -rfka ''
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" record' -l 'record' -d 'Fetch from the network and store every response (status, headers, body) in this directory, content-addressed.' -rfa '(__rss-inspect_complete_directories)'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" replay' -l 'replay' -d 'Answer every fetch from a directory written by --record, with no network; a request never recorded fails.' -rfa '(__rss-inspect_complete_directories)'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" version' -l 'version' -d 'Show the version.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_positional "rss-inspect" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'rss-inspect' -n '__rss-inspect_should_offer_completions_for_flags_or_options "rss-inspect help" version' -l 'version' -d 'Show the version.'
