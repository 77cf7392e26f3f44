/** The workflow that carries one held-inventory withdrawal (workflows/inventoryWithdrawal.ts), started by the admin CLI. */
export const inventoryWithdrawalWorkflowId = (withdrawalId: string): string => `inventory_withdrawal_${withdrawalId}`;
