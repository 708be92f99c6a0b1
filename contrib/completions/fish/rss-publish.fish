function __rss-publish_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-publish_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __rss-publish_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-publish_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __rss-publish_parse_tokens -S
    set -l unparsed_tokens (__rss-publish_tokens -pc)
    switch $unparsed_tokens[1]
    case 'rss-publish'
        __rss-publish_parse_subcommand 0 'out=' 'data-dir=' 'feed=+' 'deltas=' 'full' 'recover' 'shard=' 'retire-after=' 'site-url=' 'title=' 'metrics-file=' 'signing-key=' 'generate-key=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __rss-publish_parse_subcommand -r 1 'version'
        end
    end
end

function __rss-publish_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __rss-publish_parse_subcommand -S -a positional_count
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

function __rss-publish_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __rss-publish_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__rss-publish_tokens -p)
    if test -z "$(__rss-publish_tokens -t)"
        set -l index (count (__rss-publish_tokens -pc))
        set tokens $tokens[..$index] '' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'rss-publish' -f
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" out' -l 'out' -d 'The publish directory, or s3://bucket/prefix for S3-compatible object storage (endpoint, region and credentials from the AWS_* variables and ~/.aws files). (default: ./publish; env FEEDMILL_PUBLISH_DIR)' -rfa '(__rss-publish_complete_directories)'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-publish_complete_directories)'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish"' -l 'feed' -d 'Publish only this feed (repeatable); others are carried over.' -rfka '(__rss-publish_custom_completion ---completion -- --feed (count (__rss-publish_tokens -pc)) (__rss-publish_tokens -tC))'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" deltas' -l 'deltas' -d 'Earlier versions of each feed kept, each with a delta to the current one (0-50). (default: 3; env FEEDMILL_DELTAS)' -rfka ''
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" full' -l 'full' -d 'Rewrite every database even when unchanged.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" recover' -l 'recover' -d 'When manifest.json or this shard\'s record is missing or unusable: adopt again the files whose bytes match the digests of the newest intact publisher record of the shard (or format 1\'s .feedmill-publisher.json), leave anything else alone, rewrite every pointer of the shard, and publish.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" shard' -l 'shard' -d 'Work on shard K of N only: the feeds whose host hashes to K (docs/sharding.md); 1/1 is every feed. (default: 1/1; env FEEDMILL_SHARD)' -rfka ''
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" retire-after' -l 'retire-after' -d 'How long a file a publication no longer names stays before a later one removes it (0: the next publication; longer than a client\'s sync on object storage, where 1h is usual). (default: 0s; env FEEDMILL_RETIRE_AFTER)' -rfka ''
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" site-url' -l 'site-url' -d 'The URL the publish directory is served at, for atom.xml\'s links (ends with /). (default: none (atom.xml then has no self link); env FEEDMILL_SITE_URL)' -rfka ''
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" title' -l 'title' -d 'Title of atom.xml and index.html. (default: Feedmill; env FEEDMILL_TITLE)' -rfka ''
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" metrics-file' -l 'metrics-file' -d 'Write Prometheus text-format metrics here (node_exporter\'s textfile collector), atomically. (default: none written; env FEEDMILL_METRICS_FILE)' -rF
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" signing-key' -l 'signing-key' -d 'Sign the root and every pointer written with the Ed25519 key in this file (made by rss-publish --generate-key, mode 0600), for clients that pin its public key (rss-pull --trust). (default: none (the publication is not signed); env FEEDMILL_SIGNING_KEY)' -rF
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" generate-key' -l 'generate-key' -d 'Create a new signing key in this file (mode 0600, never over an existing file), print its public key for clients to pin, and exit.' -rF
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" version' -l 'version' -d 'Show the version.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_positional "rss-publish" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'rss-publish' -n '__rss-publish_should_offer_completions_for_flags_or_options "rss-publish help" version' -l 'version' -d 'Show the version.'
