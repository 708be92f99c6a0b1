function __rss-serve_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-serve_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __rss-serve_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-serve_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __rss-serve_parse_tokens -S
    set -l unparsed_tokens (__rss-serve_tokens -pc)
    switch $unparsed_tokens[1]
    case 'rss-serve'
        __rss-serve_parse_subcommand 0 'listen=' 'out=' 'data-dir=' 'public-url=' 'users=' 'deltas=' 'site-url=' 'title=' 'signing-key=' 'allow-private-networks' 'no-allow-private-networks' 'contact=' 'timeout=' 'proxy=' 'max-size=' 'record=' 'replay=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __rss-serve_parse_subcommand -r 1 'version'
        end
    end
end

function __rss-serve_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __rss-serve_parse_subcommand -S -a positional_count
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

function __rss-serve_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __rss-serve_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__rss-serve_tokens -p)
    if test -z "$(__rss-serve_tokens -t)"
        set -l index (count (__rss-serve_tokens -pc))
        set tokens $tokens[..$index] '' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'rss-serve' -f
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" listen' -l 'listen' -d 'Address and port rss-serve listens on. (default: 127.0.0.1:8080; env FEEDMILL_LISTEN)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" out' -l 'out' -d 'The publish directory, or s3://bucket/prefix for S3-compatible object storage (endpoint, region and credentials from the AWS_* variables and ~/.aws files). (default: ./publish; env FEEDMILL_PUBLISH_DIR)' -rfa '(__rss-serve_complete_directories)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-serve_complete_directories)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" public-url' -l 'public-url' -d 'The URL hubs reach rss-serve at (https://feeds.example.org): with it, rss-serve subscribes to the hubs feeds advertise and takes their pushes into data-dir. (default: none (no WebSub subscriptions); env FEEDMILL_PUBLIC_URL)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" users' -l 'users' -d 'A file of NAME SHA256-HEX-OF-TOKEN lines (not writable by others): the users whose read and starred marks rss-serve keeps in data-dir and shares between their devices at /v1/state (Authorization: Bearer TOKEN). (default: none (no reading state kept); env FEEDMILL_USERS)' -rF
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" deltas' -l 'deltas' -d 'Earlier versions of each feed kept, each with a delta to the current one (0-50). (default: 3; env FEEDMILL_DELTAS)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" site-url' -l 'site-url' -d 'The URL the publish directory is served at, for atom.xml\'s links (ends with /). (default: none (atom.xml then has no self link); env FEEDMILL_SITE_URL)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" title' -l 'title' -d 'Title of atom.xml and index.html. (default: Feedmill; env FEEDMILL_TITLE)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" signing-key' -l 'signing-key' -d 'Sign the root and every pointer written with the Ed25519 key in this file (made by rss-publish --generate-key, mode 0600), for clients that pin its public key (rss-pull --trust). (default: none (the publication is not signed); env FEEDMILL_SIGNING_KEY)' -rF
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" allow-private-networks' -l 'allow-private-networks' -d 'Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery). (default: false; env FEEDMILL_ALLOW_PRIVATE_NETWORKS)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" no-allow-private-networks' -l 'no-allow-private-networks' -d 'Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery). (default: false; env FEEDMILL_ALLOW_PRIVATE_NETWORKS)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" contact' -l 'contact' -d 'A URL where publishers can reach you, sent in the User-Agent. (default: https://github.com/feedmill/feedmill; env FEEDMILL_CONTACT)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" timeout' -l 'timeout' -d 'Seconds one fetch may take, redirects included (at most a day). (default: 60; env FEEDMILL_TIMEOUT)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" proxy' -l 'proxy' -d 'Forward proxy for every fetch (http://host:port), or none to fetch directly. (default: http_proxy, https_proxy, all_proxy and no_proxy from the environment; env FEEDMILL_PROXY)' -rfka 'none'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" max-size' -l 'max-size' -d 'Largest feed accepted, in MiB, after decompression (1-1024). (default: 16; env FEEDMILL_MAX_SIZE)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" record' -l 'record' -d 'Fetch from the network and store every response (status, headers, body) in this directory, content-addressed.' -rfa '(__rss-serve_complete_directories)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" replay' -l 'replay' -d 'Answer every fetch from a directory written by --record, with no network; a request never recorded fails.' -rfa '(__rss-serve_complete_directories)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" version' -l 'version' -d 'Show the version.'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_positional "rss-serve" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'rss-serve' -n '__rss-serve_should_offer_completions_for_flags_or_options "rss-serve help" version' -l 'version' -d 'Show the version.'
