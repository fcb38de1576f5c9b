/**
 * Followers' side of replication: per source broker, fetcher threads send Kafka Fetch requests (replica id
 * set) to the partitions' leaders over a small blocking wire client, append what they get to the follower
 * logs, follow the leaders' high watermarks and log starts, and truncate a follower that diverged from its
 * leader (KIP-101/KIP-320 diverging epochs, or the leader's log start moving past it).
 */
package io.kraft.broker.fetch.follower;
