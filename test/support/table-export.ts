import { gzipSync } from 'node:zlib';
import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * A DynamoDB point-in-time export (DYNAMODB_JSON) made from a real table: every item of the table
 * scanned from DynamoDB Local, laid out as ExportTableToPointInTime writes it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html).
 * Shared by the ledger:csv test (a folder on disk) and the daily ledger job's test (S3 objects).
 */
export type ExportItem = Record<string, AttributeValue>;

export async function scanTable(endpoint: string, tableName: string): Promise<ExportItem[]> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const items: ExportItem[] = [];
  let start: ExportItem | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return items;
}

export interface ExportLayout {
  /** `<prefix>/AWSDynamoDB/<export id>/`: the export's own folder, as an S3 key prefix. */
  folderKey: string;
  /** Each object by its path inside that folder: manifest-summary.json, manifest-files.json, data/part-N.json.gz. */
  files: Map<string, Buffer>;
}

/**
 * The export's objects: the items spread over `dataFiles` gzipped files of one `{"Item": …}` a
 * line (DynamoDB writes one or more a partition, in hash order), the files manifest naming each,
 * and the summary with the export time and item count.
 */
export function exportLayout(
  items: readonly ExportItem[],
  options: { exportTime: Date; exportId?: string; prefix?: string; dataFiles?: number },
): ExportLayout {
  const exportId = options.exportId ?? '01700000000000-abcdef12';
  const folderKey = `${options.prefix ?? 'exports'}/AWSDynamoDB/${exportId}/`;
  const dataFiles = options.dataFiles ?? 2;
  const files = new Map<string, Buffer>();
  const manifestLines: string[] = [];
  for (let part = 0; part < dataFiles; part += 1) {
    const lines = items.filter((_, index) => index % dataFiles === part).map((Item) => JSON.stringify({ Item }) + '\n');
    const name = `data/part-${part}.json.gz`;
    files.set(name, gzipSync(lines.join('')));
    manifestLines.push(JSON.stringify({ itemCount: lines.length, md5Checksum: 'not-checked', etag: 'not-checked', dataFileS3Key: folderKey + name }));
  }
  files.set('manifest-files.json', Buffer.from(manifestLines.join('\n') + '\n'));
  files.set(
    'manifest-summary.json',
    Buffer.from(
      JSON.stringify({
        version: '2020-06-30',
        exportArn: `arn:aws:dynamodb:local:000000000000:table/test/export/${exportId}`,
        startTime: options.exportTime.toISOString(),
        endTime: new Date(options.exportTime.getTime() + 5 * 60_000).toISOString(),
        exportTime: options.exportTime.toISOString(),
        s3Prefix: options.prefix ?? 'exports',
        manifestFilesS3Key: `${folderKey}manifest-files.json`,
        itemCount: items.length,
        outputFormat: 'DYNAMODB_JSON',
        exportType: 'FULL_EXPORT',
      }),
    ),
  );
  return { folderKey, files };
}
