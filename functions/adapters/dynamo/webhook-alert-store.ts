import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookAlertStore } from '#functions/webhooks/webhook-alerts';
import { webhookAlertItem } from './items/webhook.ts';
import { heldCondition } from './queries.ts';
import { DynamoTeamStore } from './team-store.ts';

/** The webhook sender's alerts (items/webhook.ts webhookAlertItem) and who gets them (the team's memberships). */
export class DynamoWebhookAlertStore extends DynamoTeamStore implements WebhookAlertStore {
  claimAlert(companyId: string, webhookId: string, kind: 'failing' | 'disabled', at: string, notBefore: string): Promise<boolean> {
    return heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: webhookAlertItem.toItem(companyId, webhookId, kind, at),
          ConditionExpression: 'attribute_not_exists(PK) OR alertedAt < :notBefore',
          ExpressionAttributeValues: { ':notBefore': notBefore },
        }),
      ),
    );
  }
}
