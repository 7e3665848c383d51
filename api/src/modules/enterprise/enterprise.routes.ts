import { route, type ApiModule } from '../../http/define-route';
import { companyInfo, hotlineList, saveCompany } from './company.service';
import {
  deleteDepartments,
  departmentInfo,
  departmentPage,
  departmentTree,
  saveDepartment,
} from './department.service';
import { importStaff, sendStaffTemplate } from './staff-import.service';
import { deleteStaff, moveStaff, saveStaff, staffInfo, staffPage } from './staff.service';

/** SPEC §7 "Company, people, departments, roles": the company, its hotlines, departments and staff (issue 30). */
export const enterpriseModule: ApiModule = {
  name: 'enterprise',
  routes: [
    route('GET /base/company/info/{id}', async (ctx, { params }) => companyInfo(ctx.db, ctx.tenant, params.id)),
    route('POST /base/company/update', async (ctx, { body }) => saveCompany(ctx, body.companyId, body)),
    route('POST /base/company/update/companyandhotline', async (ctx, { body }) =>
      saveCompany(ctx, body.company.companyId, body.company, body.hotlines),
    ),
    route('POST /base/company/saveorupdate/{id}', async (ctx, { params, body }) => saveCompany(ctx, params.id, body)),
    route('GET /base/hotline/list/{id}', async (ctx, { params }) => hotlineList(ctx, params.id)),

    route('POST /base/department/page', async (ctx, { body }) => departmentPage(ctx, body)),
    route('POST /base/department/save', async (ctx, { body }) => saveDepartment(ctx, body)),
    route('POST /base/department/update', async (ctx, { body }) => saveDepartment(ctx, body)),
    route('POST /base/department/delete', async (ctx, { body }) => deleteDepartments(ctx, body.departmentIds)),
    route('GET /base/department/list/v1/{id}', async (ctx, { params }) => departmentTree(ctx, params.id)),
    route('GET /base/department/info/{id}', async (ctx, { params }) => departmentInfo(ctx.db, ctx.tenant, params.id)),

    route('GET /base/personcompany/info/{id}', async (ctx, { params }) => staffInfo(ctx.db, ctx.tenant, params.id)),
    route('POST /base/personcompany/saveorupdate', async (ctx, { body }) => saveStaff(ctx, body)),
    route('POST /base/personcompany/delete', async (ctx, { body }) => deleteStaff(ctx, body.personCompanyIds)),
    route('POST /base/personcompany/page/v1', async (ctx, { body }) => staffPage(ctx, 'v1', body)),
    route('POST /base/personcompany/page/v2', async (ctx, { body }) => staffPage(ctx, 'v2', body)),
    route('POST /base/personcompany/page/v3', async (ctx, { body }) => staffPage(ctx, 'v3', body)),
    route('POST /base/personcompany/page/v4', async (ctx, { body }) => staffPage(ctx, 'v4', body)),
    route('POST /base/personcompany/savetodept/{id}', async (ctx, { params, body }) =>
      moveStaff(ctx, body.personCompanyIds, params.id),
    ),
    route('POST /base/personcompany/removedept', async (ctx, { body }) => moveStaff(ctx, body.personCompanyIds, null)),
    route('GET /base/personcompany/import/template', async (ctx) => sendStaffTemplate(ctx)),
    route('POST /base/personcompany/importperson/{companyId}', async (ctx, { params, query }) =>
      importStaff(ctx, params.companyId, query.check === 'true'),
    ),
  ],
};
