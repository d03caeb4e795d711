import type { Admin } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
}

/** Creates the topics that are missing and grows ones with too few partitions; never shrinks. */
export async function ensureTopics(admin: Admin, specs: TopicSpec[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((spec) => !existing.has(spec.topic));
  if (missing.length > 0) {
    await admin
      .createTopics({ waitForLeaders: true, topics: missing.map(({ topic, numPartitions }) => ({ topic, numPartitions })) })
      .catch((error: { type?: string }) => {
        if (error.type !== 'TOPIC_ALREADY_EXISTS') throw error; // created meanwhile by another instance
      });
  }
  const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((spec) => spec.topic) });
  for (const spec of specs) {
    const found = topics.find((topic) => topic.name === spec.topic);
    if (found && found.partitions.length < spec.numPartitions) {
      await admin.createPartitions({ topicPartitions: [{ topic: spec.topic, count: spec.numPartitions }] });
    }
  }
}

/** Messages not yet committed by the group, per partition (a partition never committed counts from its start). */
export async function consumerLag(admin: Admin, groupId: string, topic: string): Promise<Array<{ partition: number; lag: number }>> {
  const [ends, committed] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
  const committedByPartition = new Map(
    (committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)] as const),
  );
  return ends.map(({ partition, high, low }) => {
    const done = committedByPartition.get(partition) ?? -1;
    return { partition, lag: Math.max(0, Number(high) - (done >= 0 ? done : Number(low))) };
  });
}
