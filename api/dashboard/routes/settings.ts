// The Settings page (merchant-wide, the same in test and live): tolerance, session lifetime, accepted pairs and what an
// underpaid session does at expiry; the settlement wallet, whose change needs the password again; and bank accounts (add, deactivate).
import type Router from '@koa/router';
import { findBankAccount, listBankAccounts } from '../../../db/repositories/bankAccountListing';
import { insertBankAccount, setBankAccountActive, type BankAccount } from '../../../db/repositories/bankAccounts';
import { findMerchant, setSettlementWallet, updateMerchantSettings, type Merchant } from '../../../db/repositories/merchants';
import { CHAINS } from '../../../domain/chains/chains';
import { bankAccountJson } from '../../bankAccountJson';
import type { AppDeps } from '../../context';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import { validated } from '../../middlewares/validated';
import { auditUserAction } from '../audit';
import { signedInUser, type DashboardContext, type DashboardState } from '../context';
import { passwordMatches } from '../passwords';
import { BankAccountBody, BankAccountParams, SettingsBody, SettlementWalletBody } from '../schema';

const UNIQUE_VIOLATION = '23505';

const settingsJson = (m: Merchant) => ({
  settlement_wallet: m.settlementWallet,
  tolerance_bps: m.toleranceBps,
  tolerance_min_cents: Number(m.toleranceMinCents),
  session_lifetime_minutes: m.sessionLifetimeSeconds / 60,
  supported_tokens: m.supportedTokens,
  underpaid_expiry: m.underpaidExpiry,
});

export function registerSettingsRoutes(router: Router<DashboardState>, deps: AppDeps): void {
  const { sql } = deps;
  const merchantOf = async (ctx: DashboardContext) => (await findMerchant(sql, signedInUser(ctx).user.merchantId))!;

  router.get('/api/settings', async (ctx) => {
    const merchant = await merchantOf(ctx);
    ctx.body = { data: { ...settingsJson(merchant), bank_accounts: (await listBankAccounts(sql, merchant.id)).map(bankAccountJson) } };
  });

  router.put(
    '/api/settings',
    validated({ body: SettingsBody }, async (ctx: DashboardContext, { body }) => {
      const auth = signedInUser(ctx);
      const before = await merchantOf(ctx);
      // Chains in their canonical order, empty tokens left out: the shape sessions copy at creation.
      const supportedTokens = Object.fromEntries(
        Object.entries(body.supported_tokens)
          .map(([token, chains]) => [token, CHAINS.filter((c) => chains.includes(c))] as const)
          .filter(([, chains]) => chains.length > 0),
      );
      await updateMerchantSettings(sql, before.id, {
        toleranceBps: body.tolerance_bps,
        toleranceMinCents: BigInt(body.tolerance_min_cents),
        sessionLifetimeSeconds: body.session_lifetime_minutes * 60,
        supportedTokens,
        // A client that predates the setting leaves it as it was.
        underpaidExpiry: body.underpaid_expiry ?? before.underpaidExpiry,
      });
      const after = await merchantOf(ctx);
      await auditUserAction(deps, auth, null, 'merchant.settings', { from: settingsJson(before), to: settingsJson(after) });
      ctx.body = { data: settingsJson(after) };
    }),
  );

  router.post(
    '/api/settings/settlement-wallet',
    validated({ body: SettlementWalletBody }, async (ctx: DashboardContext, { body }) => {
      const auth = signedInUser(ctx);
      if (!(await passwordMatches(auth.user.passwordHash, body.password))) {
        await auditUserAction(deps, auth, null, 'merchant.settlement_wallet_refused', { reason: 'wrong password' });
        throw new ForbiddenError('Wrong password: the settlement wallet was not changed');
      }
      const before = await merchantOf(ctx);
      await setSettlementWallet(sql, before.id, body.settlement_wallet);
      await auditUserAction(deps, auth, null, 'merchant.settlement_wallet', { from: before.settlementWallet, to: body.settlement_wallet });
      ctx.body = { data: settingsJson(await merchantOf(ctx)) };
    }),
  );

  router.post(
    '/api/bank-accounts',
    validated({ body: BankAccountBody }, async (ctx: DashboardContext, { body }) => {
      const auth = signedInUser(ctx);
      let account: BankAccount;
      try {
        account = await insertBankAccount(sql, {
          merchantId: auth.user.merchantId,
          currency: body.currency,
          accountName: body.account_name,
          bankName: body.bank_name,
          iban: body.iban ?? null,
          swiftBic: body.swift_bic ?? null,
          accountNumber: body.account_number ?? null,
          sortCode: body.sort_code ?? null,
        });
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        throw new ConflictError(`There is already an active ${body.currency} account; deactivate it first`);
      }
      await auditUserAction(deps, auth, null, 'bank_account.add', bankAccountJson(account));
      ctx.status = 201;
      ctx.body = { data: bankAccountJson(account) };
    }),
  );

  router.post(
    '/api/bank-accounts/:bank_account_id/deactivate',
    validated({ params: BankAccountParams }, async (ctx: DashboardContext, { params }) => {
      const auth = signedInUser(ctx);
      const account = await findBankAccount(sql, params.bank_account_id);
      if (!account || account.merchantId !== auth.user.merchantId) throw new NotFoundError('Bank account not found');
      if (account.active) {
        await setBankAccountActive(sql, account.id, false);
        await auditUserAction(deps, auth, null, 'bank_account.deactivate', { bank_account_id: account.id, currency: account.currency });
      }
      ctx.body = { data: bankAccountJson((await findBankAccount(sql, account.id))!) };
    }),
  );
}
