package io.kraft.broker.group.consumer;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Which existing topics the members of a group subscribe to, by name or by regular expression (KIP-848's
 * {@code SubscribedTopicRegex} in RE2/J syntax as Kafka reads it, matched against whole topic names; internal topics
 * never match a pattern).
 */
public final class SubscribedTopics {
    private SubscribedTopics() {
    }

    /** The existing topics any member subscribes to. */
    public static Map<UUID, TopicInfo> of(ConsumerGroup group, TopicCatalog catalog) {
        Map<UUID, TopicInfo> out = new HashMap<>();
        for (ConsumerGroupMember member : group.members()) {
            Subscription s = member.subscription();
            for (String name : s.topicNames()) {
                TopicInfo topic = catalog.byName(name);
                if (topic != null) {
                    out.put(topic.id(), topic);
                }
            }
            Pattern pattern = compile(s.topicRegex());
            if (pattern != null) {
                for (TopicInfo topic : catalog.all()) {
                    if (!topic.name().startsWith("__") && pattern.matcher(topic.name()).matches()) {
                        out.put(topic.id(), topic);
                    }
                }
            }
        }
        return out;
    }

    /** The ids among {@code topics} that {@code subscription} names or matches. */
    public static Set<UUID> idsOf(Subscription subscription, Map<UUID, TopicInfo> topics) {
        Set<UUID> ids = new HashSet<>();
        Set<String> names = Set.copyOf(subscription.topicNames());
        Pattern pattern = compile(subscription.topicRegex());
        topics.values().forEach(topic -> {
            if (names.contains(topic.name()) || (pattern != null && !topic.name().startsWith("__")
                    && pattern.matcher(topic.name()).matches())) {
                ids.add(topic.id());
            }
        });
        return ids;
    }

    /** The pattern, or null when there is none or it does not compile. */
    public static Pattern compile(String regex) {
        if (regex == null || regex.isEmpty()) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }
}
