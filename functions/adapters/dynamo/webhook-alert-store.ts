import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AlertClaim, WebhookAlertStore } from '#functions/webhooks/webhook-alerts';
import { webhookAlertItem } from './items/webhook.ts';
import { heldCondition } from './queries.ts';
import { DynamoTeamStore } from './team-store.ts';

const alertKey = ({ companyId, webhookId, kind }: AlertClaim) => webhookAlertItem.alertKey(companyId, webhookId, kind);

/**
 * The webhook sender's alerts (items/webhook.ts webhookAlertItem) and who gets them (the team's
 * memberships). A claim whose mail is not known sent carries `claimant` and `pendingUntil`, removed
 * once it is; an item without `pendingUntil` (as every one written before claims could be pending)
 * is a mail that went out at `alertedAt`.
 */
export class DynamoWebhookAlertStore extends DynamoTeamStore implements WebhookAlertStore {
  claimAlert(claim: AlertClaim, at: string, notBefore: string, pendingUntil: string): Promise<boolean> {
    return heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...webhookAlertItem.toItem(claim.companyId, claim.webhookId, claim.kind, at), claimant: claim.claimant, pendingUntil },
          ConditionExpression: 'attribute_not_exists(PK) OR alertedAt < :notBefore OR pendingUntil <= :at OR (attribute_exists(pendingUntil) AND claimant = :claimant)',
          ExpressionAttributeValues: { ':notBefore': notBefore, ':at': at, ':claimant': claim.claimant },
        }),
      ),
    );
  }

  /** Only the claimant's own claim: one taken over after it lapsed is the other sender's to mark. */
  async alertMailed(claim: AlertClaim): Promise<void> {
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: alertKey(claim),
          UpdateExpression: 'REMOVE pendingUntil',
          ConditionExpression: 'claimant = :claimant',
          ExpressionAttributeValues: { ':claimant': claim.claimant },
        }),
      ),
    );
  }

  async releaseAlert(claim: AlertClaim, at: string): Promise<void> {
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: alertKey(claim),
          UpdateExpression: 'SET pendingUntil = :at',
          ConditionExpression: 'claimant = :claimant AND attribute_exists(pendingUntil)',
          ExpressionAttributeValues: { ':claimant': claim.claimant, ':at': at },
        }),
      ),
    );
  }
}
